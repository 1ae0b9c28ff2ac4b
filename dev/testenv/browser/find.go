package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Node is an element as assistive technology sees it: its computed role
// (ARIA's names as Chromium reports them: "button", "link", "textbox",
// "combobox", "checkbox", "heading", "table", "image", ...) and its
// accessible name.
type Node struct {
	Role, Name string
}

func (n Node) String() string { return fmt.Sprintf("%s %q", n.Role, n.Name) }

// locator says how to find one element: by role and accessible name, or
// (label true) as the form control whose accessible name is name, which for
// a control with a <label> is the label's text.
type locator struct {
	role, name string
	label      bool
}

func (l locator) String() string {
	if l.label {
		return fmt.Sprintf("the control labelled %q", l.name)
	}
	if l.name == "" {
		return "a " + l.role
	}
	return fmt.Sprintf("%s %q", l.role, l.name)
}

// errNotFound and errAmbiguous are the "not yet" answers of a lookup.
var (
	errNotFound  = errors.New("not found")
	errAmbiguous = errors.New("more than one match")
)

// Within returns the page limited to the inside of the one element with the
// role and accessible name, e.g. Within("dialog", "Confirm decision") or
// Within("row", "ada@example.com …"). Lookups wait for the scope too.
func (p *Page) Within(role, name string) *Page {
	q := *p
	q.scope = append(slices.Clone(p.scope), locator{role: role, name: name})
	return &q
}

// rootParams is the subtree a lookup searches: the document, or the
// innermost scope of Within.
func (p *Page) rootParams(ctx context.Context) (accessibility.QueryAXTreeParams, error) {
	doc, err := evalObject(ctx, "document")
	if err != nil {
		return accessibility.QueryAXTreeParams{}, err
	}
	root := accessibility.QueryAXTreeParams{ObjectID: doc}
	for _, l := range p.scope {
		ids, err := matches(ctx, root, l)
		if err != nil {
			return root, err
		}
		if len(ids) != 1 {
			return root, scopeErr(l, len(ids))
		}
		root = accessibility.QueryAXTreeParams{BackendNodeID: ids[0]}
	}
	return root, nil
}

func scopeErr(l locator, n int) error {
	if n == 0 {
		return fmt.Errorf("%w: scope %s", errNotFound, l)
	}
	return fmt.Errorf("%w: scope %s matches %d elements", errAmbiguous, l, n)
}

// matches returns the DOM nodes under root that l matches, skipping nodes
// the accessibility tree ignores (hidden, aria-hidden, inert).
//
// Names are compared here rather than by queryAXTree's accessibleName,
// which misses some elements whose reported name matches (Chromium 156
// finds no <input type=file> by the name its label gives it).
func matches(ctx context.Context, root accessibility.QueryAXTreeParams, l locator) ([]cdp.BackendNodeID, error) {
	if !l.label {
		nodes, err := axQuery(ctx, root, l.role, "")
		if err != nil {
			return nil, err
		}
		return named(nodes, l.name), nil
	}
	// A label: the fast query by name first, then the whole tree.
	nodes, err := axQuery(ctx, root, "", l.name)
	if err != nil {
		return nil, err
	}
	ids, err := controls(ctx, named(nodes, l.name))
	if err != nil || len(ids) > 0 {
		return ids, err
	}
	if nodes, err = axQuery(ctx, root, "", ""); err != nil {
		return nil, err
	}
	return controls(ctx, named(nodes, l.name))
}

// named returns the DOM nodes of the AX nodes with the name (any name when
// name is empty), once each.
func named(nodes []*accessibility.Node, name string) []cdp.BackendNodeID {
	var ids []cdp.BackendNodeID
	for _, n := range nodes {
		if name != "" && axString(n.Name) != name {
			continue
		}
		if !slices.Contains(ids, n.BackendDOMNodeID) {
			ids = append(ids, n.BackendDOMNodeID)
		}
	}
	return ids
}

// controls keeps the form controls among ids (a label's own text node and
// element share its name).
func controls(ctx context.Context, ids []cdp.BackendNodeID) ([]cdp.BackendNodeID, error) {
	var out []cdp.BackendNodeID
	for _, id := range ids {
		obj, err := nodeObject(ctx, id)
		if err != nil {
			return nil, err
		}
		ok, err := callOn[bool](ctx, obj, jsIsControl)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, id)
		}
	}
	return out, nil
}

// axQuery runs Accessibility.queryAXTree under root and drops ignored
// nodes and nodes without a DOM node. An empty role or name matches any.
func axQuery(ctx context.Context, root accessibility.QueryAXTreeParams, role, name string) ([]*accessibility.Node, error) {
	q := root
	q.Role, q.AccessibleName = role, name
	res, err := chromedp.Call(ctx, accessibility.QueryAXTree, q)
	if err != nil {
		return nil, err
	}
	var out []*accessibility.Node
	for _, n := range res.Nodes {
		if n.Ignored || n.BackendDOMNodeID == 0 {
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

// axString reads the string of a role or name value.
func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s string
	if err := json.Unmarshal(v.Value, &s); err != nil {
		return strings.Trim(string(v.Value), `"`)
	}
	return s
}

// lookup finds the one element l matches now and returns a handle to it
// (valid until the next release).
func (p *Page) lookup(ctx context.Context, l locator) (runtime.RemoteObjectID, error) {
	root, err := p.rootParams(ctx)
	if err != nil {
		return "", err
	}
	ids, err := matches(ctx, root, l)
	if err != nil {
		return "", err
	}
	switch len(ids) {
	case 0:
		return "", errNotFound
	case 1:
		return nodeObject(ctx, ids[0])
	default:
		return "", fmt.Errorf("%w: %d elements match", errAmbiguous, len(ids))
	}
}

// with waits until l matches exactly one element and fn, given a handle to
// it, returns nil. An error from fn means "not yet" (the element is still
// disabled, covered, loading its options...), unless it wraps errFatal.
// After the page's timeout with makes the test fail, naming what the page
// offered instead.
func (p *Page) with(l locator, fn func(ctx context.Context, obj runtime.RemoteObjectID) error) {
	p.t.Helper()
	var last error
	ok := p.poll(func(ctx context.Context) (bool, error) {
		release(ctx)
		obj, err := p.lookup(ctx, l)
		if err == nil {
			err = fn(ctx, obj)
		}
		last = err
		return err == nil, err
	})
	if ok {
		return
	}
	if errors.Is(last, errFatal) {
		p.t.Fatalf("browser: %s%s: %v", l, p.scopeText(), last)
	}
	hint := ""
	if errors.Is(last, errNotFound) || errors.Is(last, errAmbiguous) {
		hint = p.offered(l)
	}
	p.t.Fatalf("browser: waited %s for %s%s: %v%s", p.timeout, l, p.scopeText(), last, hint)
}

func (p *Page) scopeText() string {
	if len(p.scope) == 0 {
		return ""
	}
	var s []string
	for _, l := range p.scope {
		s = append(s, l.String())
	}
	return " within " + strings.Join(s, " within ")
}

// offered lists the names of the elements of l's kind, for the failure
// message.
func (p *Page) offered(l locator) string {
	ctx, cancel := context.WithTimeout(p.tab.ctx, 5*time.Second)
	defer cancel()
	defer release(ctx)
	root, err := p.rootParams(ctx)
	if err != nil {
		return ""
	}
	roles := []string{l.role}
	if l.label {
		roles = []string{"textbox", "searchbox", "combobox", "checkbox", "radio", "switch", "spinbutton", "slider", "listbox", "button"}
	}
	var names []string
	for _, role := range roles {
		nodes, err := axQuery(ctx, root, role, "")
		if err != nil {
			return ""
		}
		for _, n := range nodes {
			if len(names) == 30 {
				break
			}
			names = append(names, Node{Role: role, Name: axString(n.Name)}.String())
		}
	}
	if len(names) == 0 {
		return fmt.Sprintf("; the page has no %s", strings.Join(roles, ", "))
	}
	return "; the page has: " + strings.Join(names, ", ")
}

// count is the number of elements l matches now.
func (p *Page) count(l locator) (int, error) {
	ctx, cancel := p.callCtx()
	defer cancel()
	defer release(ctx)
	root, err := p.rootParams(ctx)
	if errors.Is(err, errNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	ids, err := matches(ctx, root, l)
	return len(ids), err
}

// Count is how many elements with the role and accessible name the page
// shows now (no waiting); an empty name matches any name.
func (p *Page) Count(role, name string) int {
	p.t.Helper()
	n, err := p.count(locator{role: role, name: name})
	if err != nil {
		p.t.Fatalf("browser: count %s: %v", locator{role: role, name: name}, err)
	}
	return n
}

// Exists reports whether the page shows an element with the role and
// accessible name now (no waiting).
func (p *Page) Exists(role, name string) bool {
	p.t.Helper()
	return p.Count(role, name) > 0
}

// WaitFor waits until exactly one element with the role and accessible
// name is shown.
func (p *Page) WaitFor(role, name string) {
	p.t.Helper()
	p.with(locator{role: role, name: name}, func(context.Context, runtime.RemoteObjectID) error { return nil })
}

// WaitGone waits until no element with the role and accessible name is
// shown.
func (p *Page) WaitGone(role, name string) {
	p.t.Helper()
	l := locator{role: role, name: name}
	n := -1
	ok := p.poll(func(context.Context) (bool, error) {
		var err error
		n, err = p.count(l)
		return n == 0, err
	})
	if !ok {
		p.t.Fatalf("browser: waited %s for %s%s to go; %d still shown", p.timeout, l, p.scopeText(), n)
	}
}
