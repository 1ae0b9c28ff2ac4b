package browser

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// axe-core is vendored: axe.min.js is package/axe.min.js of the npm package
// axe-core 4.14.1 (npm pack axe-core@4.14.1), and AXE_VERSION names that
// version. Replace both together.
var (
	//go:embed axe.min.js
	axeSource string
	//go:embed AXE_VERSION
	axeVersion string
)

// AxeVersion is the version of the vendored axe-core.
func AxeVersion() string { return strings.TrimSpace(axeVersion) }

// AxeTags are the rule tags of the quality bar: WCAG 2.0, 2.1 and 2.2,
// levels A and AA.
var AxeTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"}

// Violation is one failed axe-core rule and the elements that fail it.
type Violation struct {
	ID      string          `json:"id"`
	Impact  string          `json:"impact"`
	Help    string          `json:"help"`
	HelpURL string          `json:"helpUrl"`
	Nodes   []ViolationNode `json:"nodes"`
}

// ViolationNode is an element that fails a rule.
type ViolationNode struct {
	Target  []json.RawMessage `json:"target"` // CSS selectors (nested for shadow DOM)
	HTML    string            `json:"html"`
	Summary string            `json:"failureSummary"`
}

func (v Violation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s <%s>", v.ID, v.Impact, v.Help, v.HelpURL)
	for _, n := range v.Nodes {
		var targets []string
		for _, t := range n.Target {
			var s string
			if json.Unmarshal(t, &s) != nil {
				s = string(t)
			}
			targets = append(targets, s)
		}
		fmt.Fprintf(&b, "\n    %s  %s", strings.Join(targets, " >>> "), n.HTML)
		if n.Summary != "" {
			fmt.Fprintf(&b, "\n      %s", strings.ReplaceAll(n.Summary, "\n", "\n      "))
		}
	}
	return b.String()
}

// AxeViolations runs axe-core on the page as it is now and returns the
// violations of the rules with the tags (AxeTags when none are given).
// axe-core goes in through the DevTools protocol, which the page's
// Content-Security-Policy does not govern. Frames are not entered: the only
// ones on the site are cross-origin documents (the resume preview).
func (p *Page) AxeViolations(tags ...string) []Violation {
	p.t.Helper()
	if len(tags) == 0 {
		tags = AxeTags
	}
	ctx, cancel := p.callCtx()
	defer cancel()
	loaded, err := evalJSON[bool](ctx, "typeof window.axe === 'object' && typeof window.axe.run === 'function'")
	if err == nil && !loaded {
		_, err = evalJSON[any](ctx, axeSource+"\n;0")
	}
	if err != nil {
		p.t.Fatalf("browser: inject axe-core: %v", err)
	}
	tagsJSON, _ := json.Marshal(tags)
	violations, err := evalJSON[[]Violation](ctx, `axe.run(document, {
  runOnly: {type: 'tag', values: `+string(tagsJSON)+`},
  resultTypes: ['violations'],
  iframes: false,
}).then((r) => r.violations.map((v) => ({
  id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
  nodes: v.nodes.map((n) => ({target: n.target, html: n.html, failureSummary: n.failureSummary})),
})))`)
	if err != nil {
		p.t.Fatalf("browser: run axe-core: %v", err)
	}
	return violations
}

// Axe runs axe-core (see AxeViolations) and fails the test listing every
// violation: rule, impact, help and the failing elements.
func (p *Page) Axe(tags ...string) {
	p.t.Helper()
	vs := p.AxeViolations(tags...)
	if len(vs) == 0 {
		return
	}
	lines := make([]string, len(vs))
	for i, v := range vs {
		lines[i] = v.String()
	}
	p.t.Errorf("browser: axe-core %s found %d violation(s) on %s at %s:\n  %s",
		AxeVersion(), len(vs), p.URL(), p.tab.vp.Name, strings.Join(lines, "\n  "))
}
