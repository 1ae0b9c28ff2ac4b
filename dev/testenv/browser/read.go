package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Value is what the control labelled label shows: the text of an input or
// text area, or the selected option's text of a <select>.
func (p *Page) Value(label string) string {
	p.t.Helper()
	var v string
	p.with(locator{name: label, label: true}, func(ctx context.Context, obj runtime.RemoteObjectID) (err error) {
		v, err = callOn[string](ctx, obj, jsValue)
		return err
	})
	return v
}

// Checked reports whether the checkbox, radio button or switch labelled
// label is checked.
func (p *Page) Checked(label string) bool {
	p.t.Helper()
	var v bool
	p.with(locator{name: label, label: true}, func(ctx context.Context, obj runtime.RemoteObjectID) (err error) {
		v, err = callOn[bool](ctx, obj, jsChecked)
		return err
	})
	return v
}

// Text is the visible text (innerText, trimmed) of the element with the
// role and accessible name, e.g. Text("status", "") or
// Text("region", "Decision").
func (p *Page) Text(role, name string) string {
	p.t.Helper()
	var v string
	p.with(locator{role: role, name: name}, func(ctx context.Context, obj runtime.RemoteObjectID) (err error) {
		v, err = callOn[string](ctx, obj, jsInnerText)
		return err
	})
	return v
}

// Table reads the table (or grid) with the accessible name (its caption or
// aria-label) as rows of cell texts, the header row included.
func (p *Page) Table(name string) [][]string {
	p.t.Helper()
	var v [][]string
	p.with(locator{role: "table", name: name}, func(ctx context.Context, obj runtime.RemoteObjectID) (err error) {
		v, err = callOn[[][]string](ctx, obj, jsTable)
		return err
	})
	return v
}

// mainText is the visible text of the page's main landmark (the body when
// there is none), within the page's scope, with runs of white space as one
// space.
func (p *Page) mainText(ctx context.Context) (string, error) {
	var obj runtime.RemoteObjectID
	var err error
	if len(p.scope) == 0 {
		obj, err = evalObject(ctx, "document.querySelector('main') || document.body")
	} else {
		q := *p
		last := q.scope[len(q.scope)-1]
		q.scope = q.scope[:len(q.scope)-1]
		obj, err = q.lookup(ctx, last)
	}
	if err != nil {
		return "", err
	}
	s, err := callOn[string](ctx, obj, jsInnerText)
	return strings.Join(strings.Fields(s), " "), err
}

// HasText reports whether the main landmark shows text now (no waiting);
// white space in both is compared as single spaces.
func (p *Page) HasText(text string) bool {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	defer release(ctx)
	s, err := p.mainText(ctx)
	if err != nil && !errors.Is(err, errNotFound) {
		p.t.Fatalf("browser: read the page: %v", err)
	}
	return strings.Contains(s, strings.Join(strings.Fields(text), " "))
}

// WaitText waits until the main landmark shows text.
func (p *Page) WaitText(text string) {
	p.t.Helper()
	want := strings.Join(strings.Fields(text), " ")
	var last string
	ok := p.poll(func(ctx context.Context) (bool, error) {
		defer release(ctx)
		s, err := p.mainText(ctx)
		last = s
		return strings.Contains(s, want), err
	})
	if !ok {
		if len(last) > 1500 {
			last = last[:1500] + "…"
		}
		p.t.Fatalf("browser: waited %s for the text %q%s; the page shows:\n%s", p.timeout, text, p.scopeText(), last)
	}
}

// headings returns the names of the shown headings of the level, in
// document order.
func (p *Page) headings(ctx context.Context, level int) ([]string, error) {
	defer release(ctx)
	root, err := p.rootParams(ctx)
	if err != nil {
		return nil, err
	}
	nodes, err := axQuery(ctx, root, "heading", "")
	if err != nil {
		return nil, err
	}
	var names []string
	for _, n := range nodes {
		for _, prop := range n.Properties {
			if prop.Name != accessibility.PropertyNameLevel || prop.Value == nil {
				continue
			}
			var l int
			if json.Unmarshal(prop.Value.Value, &l) == nil && l == level {
				names = append(names, axString(n.Name))
			}
		}
	}
	return names, nil
}

// Heading waits for a heading of the level (1 for <h1>) and returns the
// accessible name of the first one.
func (p *Page) Heading(level int) string {
	p.t.Helper()
	var names []string
	var last error
	ok := p.poll(func(ctx context.Context) (bool, error) {
		var err error
		names, err = p.headings(ctx, level)
		last = err
		return len(names) > 0, err
	})
	if !ok {
		p.t.Fatalf("browser: waited %s for a heading of level %d%s (%v)", p.timeout, level, p.scopeText(), last)
	}
	return names[0]
}

// Headings returns the names of the headings of the level shown now.
func (p *Page) Headings(level int) []string {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	names, err := p.headings(ctx, level)
	if err != nil {
		p.t.Fatalf("browser: read headings: %v", err)
	}
	return names
}

// Focused is the role and accessible name of the element that has the
// keyboard focus (document.activeElement); the body when nothing does.
func (p *Page) Focused() Node {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	defer release(ctx)
	n, err := focused(ctx)
	if err != nil {
		p.t.Fatalf("browser: focused element: %v", err)
	}
	return n
}

func focused(ctx context.Context) (Node, error) {
	obj, err := evalObject(ctx, "document.activeElement || document.body")
	if err != nil {
		return Node{}, err
	}
	desc, err := chromedp.Call(ctx, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: obj})
	if err != nil {
		return Node{}, err
	}
	id := desc.Node.BackendNodeID
	no := false
	res, err := chromedp.Call(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{BackendNodeID: id, FetchRelatives: &no})
	if err != nil {
		return Node{}, err
	}
	for _, n := range res.Nodes {
		if n.BackendDOMNodeID == id {
			return Node{Role: axString(n.Role), Name: axString(n.Name)}, nil
		}
	}
	return Node{}, fmt.Errorf("the focused <%s> has no accessibility node", strings.ToLower(desc.Node.NodeName))
}

// WaitFocused waits until the element with the role and accessible name
// has the focus, e.g. the step heading after Next.
func (p *Page) WaitFocused(role, name string) {
	p.t.Helper()
	want := Node{Role: role, Name: name}
	var got Node
	ok := p.poll(func(ctx context.Context) (bool, error) {
		defer release(ctx)
		var err error
		got, err = focused(ctx)
		return got == want, err
	})
	if !ok {
		p.t.Fatalf("browser: waited %s for the focus on %s; it is on %s", p.timeout, want, got)
	}
}

// LocalStorage returns the page origin's localStorage item and whether it
// exists.
func (p *Page) LocalStorage(key string) (string, bool) {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	keyJSON, _ := json.Marshal(key)
	v, err := evalJSON[*string](ctx, "localStorage.getItem("+string(keyJSON)+")")
	if err != nil {
		p.t.Fatalf("browser: localStorage: %v", err)
	}
	if v == nil {
		return "", false
	}
	return *v, true
}

// LocalStorageKeys returns the page origin's localStorage keys, sorted.
func (p *Page) LocalStorageKeys() []string {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	keys, err := evalJSON[[]string](ctx, "Object.keys(localStorage)")
	if err != nil {
		p.t.Fatalf("browser: localStorage: %v", err)
	}
	slices.Sort(keys)
	return keys
}

// SideScroll is how many CSS pixels the page scrolls sideways (0 when its
// content reflows into the viewport's width, as WCAG 1.4.10 asks at 320
// pixels).
func (p *Page) SideScroll() int {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	n, err := evalJSON[int](ctx, "Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth)")
	if err != nil {
		p.t.Fatalf("browser: side scroll: %v", err)
	}
	return n
}

// BlankBelow is how many CSS pixels the document extends below the bottom
// of its last element (the footer): space a person scrolls into and finds
// nothing, as when something absolutely placed escapes a scroll box.
func (p *Page) BlankBelow() int {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	n, err := evalJSON[int](ctx, `(() => {
		const last = document.body.lastElementChild && [...document.body.querySelectorAll('footer')].pop();
		const bottom = (last || document.body).getBoundingClientRect().bottom + window.scrollY;
		return Math.max(0, Math.round(document.documentElement.scrollHeight - bottom));
	})()`)
	if err != nil {
		p.t.Fatalf("browser: blank below: %v", err)
	}
	return n
}

// EmptyBoxes counts the elements matching selector that are drawn with a
// border or a background yet have no content: a box that shows nothing.
func (p *Page) EmptyBoxes(selector string) int {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	n, err := evalJSON[int](ctx, fmt.Sprintf(`[...document.querySelectorAll(%q)].filter((el) => {
		if (el.childElementCount > 0 || el.textContent.trim() !== '') return false;
		const s = getComputedStyle(el), r = el.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) return false;
		const bordered = ['Top', 'Right', 'Bottom', 'Left'].filter((side) => parseFloat(s['border' + side + 'Width']) > 0 && s['border' + side + 'Style'] !== 'none').length >= 3;
		return bordered || s.boxShadow !== 'none' || s.outlineStyle !== 'none';
	}).length`, selector))
	if err != nil {
		p.t.Fatalf("browser: empty boxes: %v", err)
	}
	return n
}

// ScrollBoxesSideways counts the scroll boxes in main that scroll
// sideways: content (a table's last column, its buttons) hidden past their
// right edge until someone scrolls the box.
func (p *Page) ScrollBoxesSideways() int {
	p.t.Helper()
	ctx, cancel := p.callCtx()
	defer cancel()
	n, err := evalJSON[int](ctx, `[...document.querySelectorAll('main *')].filter((el) => {
		const o = getComputedStyle(el).overflowX;
		return (o === 'auto' || o === 'scroll') && el.scrollWidth > el.clientWidth + 1;
	}).length`)
	if err != nil {
		p.t.Fatalf("browser: scroll boxes: %v", err)
	}
	return n
}

// WaitLoaded waits until the page shows its h1 and none of its requests
// is still drawn as placeholder lines (a page's loaded content, not its
// skeleton, is what is measured or looked at next).
func (p *Page) WaitLoaded() {
	p.t.Helper()
	ok := p.poll(func(ctx context.Context) (bool, error) {
		return evalJSON[bool](ctx, `!!document.querySelector('h1') && !document.querySelector('.skeleton')`)
	})
	if !ok {
		p.t.Fatalf("browser: waited %s for the page to load", p.timeout)
	}
}

// jsInView answers whether the element is drawn whole inside the window
// and inside every ancestor that clips it (a table's scroll box), as it
// stands, without scrolling anything.
const jsInView = `function() {
  const r = this.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return false;
  if (r.left < -0.5 || r.right > window.innerWidth + 0.5) return false;
  for (let el = this.parentElement; el && el !== document.body; el = el.parentElement) {
    const s = getComputedStyle(el);
    if (s.overflowX === 'visible') continue;
    const b = el.getBoundingClientRect();
    if (r.left < b.left - 0.5 || r.right > b.right + 0.5) return false;
  }
  return true;
}`

// InView is whether the element of role and name is drawn whole across,
// where it stands, inside the window and inside any box around it that
// clips (a table's scroll box): a column a person sees without scrolling
// the table sideways.
func (p *Page) InView(role, name string) bool {
	p.t.Helper()
	var v bool
	p.with(locator{role: role, name: name}, func(ctx context.Context, obj runtime.RemoteObjectID) (err error) {
		v, err = callOn[bool](ctx, obj, jsInView)
		return err
	})
	return v
}
