package metrics_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"
	"go.yaml.in/yaml/v3"

	"hackdesk/internal/platform/metrics"
)

// ruleFile is a Prometheus rules file, read strictly (an unknown field is
// an error, as promtool has it).
type ruleFile struct {
	Groups []struct {
		Name     string `yaml:"name"`
		Interval string `yaml:"interval"`
		Rules    []struct {
			Alert       string            `yaml:"alert"`
			Record      string            `yaml:"record"`
			Expr        string            `yaml:"expr"`
			For         string            `yaml:"for"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// TestAlertRules checks docs/alerts.yml as promtool check rules would
// (structure, durations, every expr parses) and more: every metric an
// expr names is one the processes export (hackdesk's own, read from a
// registry, the Go runtime's, or the Temporal SDK's under the names its
// metrics get through the tally reporter), every alert has a severity, a
// summary and a runbook link to a heading of docs/operations.md.
func TestAlertRules(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "alerts.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var rf ruleFile
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&rf); err != nil {
		t.Fatalf("alerts.yml: %v", err)
	}
	ops, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "operations.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := headingAnchors(string(ops))
	known := exportedNames(t)
	p := parser.NewParser(parser.Options{})
	groups, alerts := map[string]bool{}, map[string]bool{}
	n := 0
	for _, g := range rf.Groups {
		if g.Name == "" || groups[g.Name] {
			t.Errorf("group %q: empty or repeated name", g.Name)
		}
		groups[g.Name] = true
		for _, r := range g.Rules {
			n++
			name := r.Alert
			if (r.Alert == "") == (r.Record == "") {
				t.Errorf("group %s: a rule needs exactly one of alert and record", g.Name)
				continue
			}
			if r.Record != "" {
				name = r.Record
			} else if alerts[r.Alert] {
				t.Errorf("alert %s defined twice", r.Alert)
			}
			alerts[r.Alert] = true
			if r.For != "" {
				if _, err := model.ParseDuration(r.For); err != nil {
					t.Errorf("%s: for %q: %v", name, r.For, err)
				}
			}
			expr, err := p.ParseExpr(r.Expr)
			if err != nil {
				t.Errorf("%s: expr does not parse: %v", name, err)
				continue
			}
			for _, m := range metricNames(expr) {
				if !known[m] {
					t.Errorf("%s: metric %s is not exported by hackdesk", name, m)
				}
			}
			if r.Alert == "" {
				continue
			}
			if s := r.Labels["severity"]; s != "page" && s != "ticket" {
				t.Errorf("%s: severity %q, want page or ticket", name, s)
			}
			if r.Annotations["summary"] == "" {
				t.Errorf("%s: no summary", name)
			}
			rb := r.Annotations["runbook"]
			anchor, ok := strings.CutPrefix(rb, "docs/operations.md#")
			if !ok || !anchors[anchor] {
				t.Errorf("%s: runbook %q is not a heading of docs/operations.md", name, rb)
			}
		}
	}
	if n == 0 {
		t.Fatal("alerts.yml has no rules")
	}
}

// metricNames lists the metric names an expression selects.
func metricNames(e parser.Expr) []string {
	var out []string
	parser.Inspect(e, func(node parser.Node, _ []parser.Node) error {
		vs, ok := node.(*parser.VectorSelector)
		if !ok {
			return nil
		}
		name := vs.Name
		for _, m := range vs.LabelMatchers {
			if m.Name == model.MetricNameLabel {
				name = m.Value
			}
		}
		out = append(out, name)
		return nil
	})
	return out
}

// exportedNames are the series names a hackdesk process can export.
func exportedNames(t *testing.T) map[string]bool {
	t.Helper()
	m := metrics.New(nil)
	known := map[string]bool{}
	for name, kind := range m.Defined() {
		known[name] = true
		if kind == "histogram" {
			for _, s := range []string{"_bucket", "_sum", "_count"} {
				known[name+s] = true
			}
		}
	}
	families, err := m.Registry.Gather() // the Go runtime's and the process's
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		known[f.GetName()] = true
	}
	for name := range temporalSDKNames(t) {
		known[name] = true
	}
	return known
}

// temporalSDKNames derives the Prometheus names of the Temporal SDK's
// metrics from the source of the SDK version in go.mod: each name
// constant, as a counter (+ _total), a timer (a histogram in seconds) or
// a gauge, by how the SDK records it (else by its constant's name).
// metrics.TemporalHandler's naming scope is what adds the suffixes.
func temporalSDKNames(t *testing.T) map[string]bool {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "go.temporal.io/sdk").Output()
	if err != nil {
		t.Fatalf("locate the Temporal SDK's source: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	consts, err := os.ReadFile(filepath.Join(dir, "internal", "common", "metrics", "constants.go"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{} // constant → Counter, Timer or Gauge
	use := regexp.MustCompile(`\.\s*(Counter|Timer|Gauge)\(metrics\.(\w+)\)`)
	err = filepath.WalkDir(filepath.Join(dir, "internal"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range use.FindAllStringSubmatch(string(src), -1) {
			kinds[m[2]] = m[1]
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	def := regexp.MustCompile(`(?m)^\s*(\w+)\s*=\s*TemporalMetricsPrefix\s*\+\s*"(\w+)"`)
	for _, m := range def.FindAllStringSubmatch(string(consts), -1) {
		constant, name := m[1], "temporal_"+m[2]
		kind := kinds[constant]
		if kind == "" {
			switch {
			case strings.HasSuffix(constant, "Counter"):
				kind = "Counter"
			case strings.HasSuffix(constant, "Latency"):
				kind = "Timer"
			default:
				continue
			}
		}
		switch kind {
		case "Counter":
			names[name+"_total"] = true
		case "Timer":
			for _, s := range []string{"_bucket", "_sum", "_count"} {
				names[name+"_seconds"+s] = true
			}
		case "Gauge":
			names[name] = true
		}
	}
	if len(names) < 20 {
		t.Fatalf("found only %d Temporal SDK metrics in %s: has the source moved?", len(names), dir)
	}
	return names
}

// headingAnchors are the GitHub anchors of a Markdown file's headings.
func headingAnchors(md string) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range h {
			switch {
			case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		out[b.String()] = true
	}
	return out
}

// TestDefinedNames keeps the names to the conventions: hackdesk_ prefix,
// counters in _total, histograms and durations in _seconds.
func TestDefinedNames(t *testing.T) {
	defined := metrics.New(nil).Defined()
	names := make([]string, 0, len(defined))
	for n := range defined {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatal("no metrics defined")
	}
	for _, n := range names {
		kind := defined[n]
		switch {
		case !strings.HasPrefix(n, "hackdesk_"):
			t.Errorf("%s: no hackdesk_ prefix", n)
		case kind == "counter" && !strings.HasSuffix(n, "_total"):
			t.Errorf("counter %s does not end in _total", n)
		case kind != "counter" && strings.HasSuffix(n, "_total"):
			t.Errorf("%s %s ends in _total", kind, n)
		case kind == "histogram" && !strings.HasSuffix(n, "_seconds"):
			t.Errorf("histogram %s is not in seconds", n)
		}
	}
}
