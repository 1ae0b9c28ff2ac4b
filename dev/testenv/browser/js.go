package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// objectGroup holds the remote objects the harness creates, released after
// each step so a long test does not pile them up in the page.
const objectGroup = "hackdesk-browser"

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// jsError turns a thrown exception into an error.
func jsError(d *runtime.ExceptionDetails) error {
	text := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		text = d.Exception.Description
	}
	return fmt.Errorf("javascript: %s", strings.TrimSpace(text))
}

// evalJSON evaluates expr in the page (awaiting a promise) and decodes the
// value into T.
func evalJSON[T any](ctx context.Context, expr string) (T, error) {
	var v T
	yes := true
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{
		Expression: expr, ReturnByValue: &yes, AwaitPromise: &yes, Silent: &yes,
	})
	if err != nil {
		return v, err
	}
	if res.ExceptionDetails != nil {
		return v, jsError(res.ExceptionDetails)
	}
	if res.Result == nil || len(res.Result.Value) == 0 {
		return v, nil // undefined
	}
	err = json.Unmarshal(res.Result.Value, &v)
	return v, err
}

// evalObject evaluates expr and returns a handle to the resulting object.
func evalObject(ctx context.Context, expr string) (runtime.RemoteObjectID, error) {
	yes := true
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{
		Expression: expr, ObjectGroup: objectGroup, Silent: &yes,
	})
	if err != nil {
		return "", err
	}
	if res.ExceptionDetails != nil {
		return "", jsError(res.ExceptionDetails)
	}
	if res.Result == nil || res.Result.ObjectID == "" {
		return "", fmt.Errorf("%s is not an object", expr)
	}
	return res.Result.ObjectID, nil
}

// callOn calls the JavaScript function fn with this bound to obj and the
// JSON-encoded args, and decodes its (awaited) result into T.
func callOn[T any](ctx context.Context, obj runtime.RemoteObjectID, fn string, args ...any) (T, error) {
	var v T
	var cargs []*runtime.CallArgument
	for _, a := range args {
		data, err := json.Marshal(a)
		if err != nil {
			return v, err
		}
		cargs = append(cargs, &runtime.CallArgument{Value: data})
	}
	yes := true
	res, err := chromedp.Call(ctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn, ObjectID: obj, Arguments: cargs,
		ReturnByValue: &yes, AwaitPromise: &yes, Silent: &yes,
	})
	if err != nil {
		return v, err
	}
	if res.ExceptionDetails != nil {
		return v, jsError(res.ExceptionDetails)
	}
	if res.Result == nil || len(res.Result.Value) == 0 {
		return v, nil
	}
	err = json.Unmarshal(res.Result.Value, &v)
	return v, err
}

// nodeObject returns a JavaScript handle to the DOM node.
func nodeObject(ctx context.Context, id cdp.BackendNodeID) (runtime.RemoteObjectID, error) {
	res, err := chromedp.Call(ctx, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: id, ObjectGroup: objectGroup})
	if err != nil {
		return "", err
	}
	if res.Object == nil || res.Object.ObjectID == "" {
		return "", fmt.Errorf("node %d has no JavaScript object", id)
	}
	return res.Object.ObjectID, nil
}

// release frees the handles of objectGroup.
func release(ctx context.Context) {
	_, _ = chromedp.Call(ctx, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: objectGroup})
}

// JavaScript run on an element (this) by the actions.
const (
	// jsPoint scrolls the element (or, when it cannot be hit, one of its
	// labels) into view and returns the point a person would press, or why
	// nothing can be pressed.
	jsPoint = `function() {
  const el = this;
  if (el.disabled || el.getAttribute('aria-disabled') === 'true') return {why: 'it is disabled'};
  const describe = (n) => {
    let s = n.tagName.toLowerCase();
    if (n.id) s += '#' + n.id;
    const name = n.getAttribute('aria-label') || (n.innerText || '').trim().slice(0, 40);
    return name ? s + ' "' + name + '"' : s;
  };
  let why = 'it has no size (hidden?)';
  for (const c of [el, ...(el.labels ? Array.from(el.labels) : [])]) {
    c.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    // A link wrapped over lines: its first line, where its text is (the
    // middle of its bounding box may fall between the lines).
    const rs = c.getClientRects();
    const r = rs.length > 0 && rs[0].width >= 1 ? rs[0] : c.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit) { why = 'it is outside the viewport'; continue; }
    const label = hit.closest('label');
    if (c.contains(hit) || (label && label.control === el)) return {x, y};
    why = 'it is covered by ' + describe(hit);
  }
  return {why};
}`
	// jsArm starts watching where the next press lands: jsLanded then
	// answers "hit" (on the element, inside it, or on a label of it),
	// "missed" (on something else: the page moved under the pointer), or
	// "" (no press seen).
	jsArm = `function() {
  const el = this;
  el.__hdLanded = '';
  if (el.__hdDisarm) el.__hdDisarm();
  const seen = (ev) => {
    const t = ev.target instanceof Element ? ev.target : null;
    const label = t && t.closest('label');
    el.__hdLanded = t && (el.contains(t) || (label && label.control === el)) ? 'hit' : 'missed';
    el.__hdDisarm();
  };
  el.__hdDisarm = () => { document.removeEventListener('pointerdown', seen, true); el.__hdDisarm = null; };
  document.addEventListener('pointerdown', seen, true);
}`
	jsLanded = `function() {
  const v = this.__hdLanded || '';
  if (this.__hdDisarm) this.__hdDisarm();
  return v;
}`
	jsFocus = `function() {
  if (document.activeElement !== this) this.focus();
  return document.activeElement === this;
}`
	jsIsControl = `function() {
  return this.nodeType === 1 && this.matches('input:not([type=hidden]), select, textarea, [contenteditable=""], [contenteditable=true], ' +
    '[role=textbox], [role=searchbox], [role=combobox], [role=checkbox], [role=radio], [role=switch], [role=spinbutton], [role=slider], [role=listbox]');
}`
	jsValue = `function() {
  if (this instanceof HTMLSelectElement) return this.selectedOptions.length ? this.selectedOptions[0].text.trim() : '';
  if ('value' in this && !(this instanceof HTMLButtonElement)) return String(this.value);
  return (this.innerText || this.textContent || '').trim();
}`
	jsChecked = `function() {
  if (this instanceof HTMLInputElement && (this.type === 'checkbox' || this.type === 'radio')) return this.checked;
  return this.getAttribute('aria-checked') === 'true';
}`
	jsIsSelect = `function() { return this instanceof HTMLSelectElement; }`
	// jsSelectOption picks the option with the visible text and fires the
	// events a person's choice fires; it returns the options when none
	// matches.
	jsSelectOption = `function(text) {
  const opts = Array.from(this.options);
  const o = opts.find((o) => o.text.trim() === text);
  if (!o) return opts.map((o) => o.text.trim());
  this.focus();
  if (!o.selected) {
    o.selected = true;
    this.dispatchEvent(new Event('input', {bubbles: true}));
    this.dispatchEvent(new Event('change', {bubbles: true}));
  }
  return null;
}`
	jsIsFileInput = `function() { return this instanceof HTMLInputElement && this.type === 'file'; }`
	jsInnerText   = `function() { return (this.innerText || this.textContent || '').trim(); }`
	jsTable       = `function() {
  const rows = this.querySelectorAll('tr, [role=row]');
  return Array.from(rows).map((r) => Array.from(r.querySelectorAll(
    ':scope > th, :scope > td, :scope > [role=cell], :scope > [role=gridcell], :scope > [role=columnheader], :scope > [role=rowheader]'
  )).map((c) => (c.innerText || c.textContent || '').replace(/\s+/g, ' ').trim()));
}`
)
