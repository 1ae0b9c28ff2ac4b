package browser

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// point is jsPoint's answer.
type point struct {
	X, Y float64
	Why  string
}

// pressOn scrolls the element into view and presses it where a person
// would: a tap on a Mobile page, a left click otherwise. It returns a
// "not yet" error while the element is disabled, covered or hidden.
func (p *Page) pressOn(ctx context.Context, obj runtime.RemoteObjectID) error {
	pt, err := callOn[point](ctx, obj, jsPoint)
	if err != nil {
		return err
	}
	if pt.Why != "" {
		return errors.New(pt.Why)
	}
	// A page still settling (focus moving to a heading after a step change,
	// a frame growing as it loads) can scroll the element away between the
	// measure and the press, and the press then lands on something else:
	// press only where the element stays put for a few frames.
	time.Sleep(settle)
	again, err := callOn[point](ctx, obj, jsPoint)
	if err != nil {
		return err
	}
	if again.Why != "" {
		return errors.New(again.Why)
	}
	if math.Abs(again.X-pt.X) > 1 || math.Abs(again.Y-pt.Y) > 1 {
		return errors.New("it is still moving")
	}
	// The page can still move between the last measure and the press (a
	// loaded machine runs the page's own scrolling late): watch where the
	// press lands, and press again when it landed on something else.
	if _, err := callOn[any](ctx, obj, jsArm); err != nil {
		return err
	}
	if err := p.dispatchPress(ctx, pt); err != nil {
		return err
	}
	// No answer means the press took the page elsewhere (a link), as it
	// should have.
	if landed, err := callOn[string](ctx, obj, jsLanded); err == nil && landed == "missed" {
		return errors.New("the press landed on something else (the page moved)")
	}
	return nil
}

// dispatchPress is a tap at pt on a Mobile page, a left click otherwise.
func (p *Page) dispatchPress(ctx context.Context, pt point) error {
	if p.tab.vp.Mobile {
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{
			Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: pt.X, Y: pt.Y}},
		}); err != nil {
			return fatal("tap: %v", err)
		}
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{
			Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{},
		}); err != nil {
			return fatal("tap: %v", err)
		}
		return nil
	}
	for _, ev := range []input.DispatchMouseEventParams{
		{Type: input.DispatchMouseEventTypeMouseMoved, X: pt.X, Y: pt.Y},
		{Type: input.DispatchMouseEventTypeMousePressed, X: pt.X, Y: pt.Y, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1},
		{Type: input.DispatchMouseEventTypeMouseReleased, X: pt.X, Y: pt.Y, Button: input.MouseButtonLeft, ClickCount: 1},
	} {
		if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, ev); err != nil {
			return fatal("click: %v", err)
		}
	}
	return nil
}

// settle is how long an element must stay where it is before it is pressed.
const settle = 50 * time.Millisecond

// Click presses the element with the role and accessible name (a tap on a
// Mobile page), once it is enabled and nothing covers it.
func (p *Page) Click(role, name string) {
	p.t.Helper()
	p.with(locator{role: role, name: name}, p.pressOn)
}

// focusOn presses a control and makes sure it has the focus.
func (p *Page) focusOn(ctx context.Context, obj runtime.RemoteObjectID) error {
	if err := p.pressOn(ctx, obj); err != nil {
		return err
	}
	ok, err := callOn[bool](ctx, obj, jsFocus)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("it does not take the focus")
	}
	return nil
}

// Fill replaces the text of the control labelled label with text, as a
// person does: press the field, select all, and type text key by key (so
// keydown, input and keyup handlers run). An empty text clears the field
// with Backspace. A "\n" in text is the Enter key.
func (p *Page) Fill(label, text string) {
	p.t.Helper()
	p.with(locator{name: label, label: true}, p.focusOn)
	ctx, cancel := context.WithTimeout(p.tab.ctx, callTimeout+time.Duration(len(text))*20*time.Millisecond)
	defer cancel()
	err := chromedp.Do(ctx, selectAll())
	if err == nil && text == "" {
		err = chromedp.Do(ctx, chromedp.KeyEvent(kb.Backspace))
	}
	if err == nil {
		err = chromedp.Do(ctx, chromedp.KeyEvent(text))
	}
	if err != nil {
		p.t.Fatalf("browser: type into %q: %v", label, err)
	}
}

// Type types text key by key into whatever has the focus.
func (p *Page) Type(text string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.tab.ctx, callTimeout+time.Duration(len(text))*20*time.Millisecond)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(text)); err != nil {
		p.t.Fatalf("browser: type %q: %v", text, err)
	}
}

// selectAll is Ctrl+A with the editing command, which selects the text of
// the focused field.
func selectAll() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		down := input.DispatchKeyEventParams{
			Type: input.DispatchKeyEventTypeKeyDown, Key: "a", Code: "KeyA", WindowsVirtualKeyCode: 65, NativeVirtualKeyCode: 65,
			Modifiers: int64(chromedp.ModifierCtrl), Commands: []string{"selectAll"},
		}
		if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, down); err != nil {
			return err
		}
		up := down
		up.Type, up.Commands = input.DispatchKeyEventTypeKeyUp, nil
		_, err := chromedp.Call(ctx, input.DispatchKeyEvent, up)
		return err
	})
}

// Check makes sure the checkbox, radio button or switch labelled label is
// checked, pressing it if it is not, and waits until it shows as checked.
func (p *Page) Check(label string) {
	p.t.Helper()
	p.setChecked(label, true)
}

// Uncheck makes sure the checkbox or switch labelled label is not checked.
func (p *Page) Uncheck(label string) {
	p.t.Helper()
	p.setChecked(label, false)
}

func (p *Page) setChecked(label string, want bool) {
	p.t.Helper()
	l := locator{name: label, label: true}
	p.with(l, func(ctx context.Context, obj runtime.RemoteObjectID) error {
		got, err := callOn[bool](ctx, obj, jsChecked)
		if err != nil || got == want {
			return err
		}
		return p.pressOn(ctx, obj)
	})
	if p.Checked(label) != want {
		p.t.Fatalf("browser: pressed %s but its checked state stayed %v", l, !want)
	}
}

// Select chooses the option with the visible text optionText in the control
// labelled label: a native <select> gets the option and its input and
// change events; a combobox is pressed and the option with that name
// clicked.
func (p *Page) Select(label, optionText string) {
	p.t.Helper()
	combobox := false
	p.with(locator{name: label, label: true}, func(ctx context.Context, obj runtime.RemoteObjectID) error {
		isSelect, err := callOn[bool](ctx, obj, jsIsSelect)
		if err != nil {
			return err
		}
		if !isSelect {
			combobox = true
			return p.pressOn(ctx, obj)
		}
		options, err := callOn[[]string](ctx, obj, jsSelectOption, optionText)
		if err != nil {
			return err
		}
		if options != nil {
			return fmt.Errorf("no option %q; the options are %q", optionText, options)
		}
		return nil
	})
	if combobox {
		// The list of a combobox is often outside the field's container.
		q := *p
		q.scope = nil
		q.Click("option", optionText)
	}
}

// SetFile puts the file at path into the file input labelled label, as a
// person choosing it in the file dialog (input and change fire).
func (p *Page) SetFile(label, path string) {
	p.t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		p.t.Fatal(err)
	}
	p.with(locator{name: label, label: true}, func(ctx context.Context, obj runtime.RemoteObjectID) error {
		ok, err := callOn[bool](ctx, obj, jsIsFileInput)
		if err != nil {
			return err
		}
		if !ok {
			return fatal("it is not a file input")
		}
		_, err = chromedp.Call(ctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: []string{abs}, ObjectID: obj})
		if err != nil {
			return fatal("set file %s: %v", abs, err)
		}
		return nil
	})
}

var (
	keyIndexOnce sync.Once
	keyIndex     map[string]rune // DOM key or code name → kb rune
)

// keyRune finds the kb rune for a key name such as "Tab", "ArrowDown",
// "Space" or "7".
func keyRune(name string) (rune, bool) {
	keyIndexOnce.Do(func() {
		keyIndex = map[string]rune{}
		for r, k := range kb.Keys {
			if r == '\n' {
				continue // '\r' is Enter
			}
			if _, dup := keyIndex[k.Key]; !dup && k.Key != "" {
				keyIndex[k.Key] = r
			}
		}
		for r, k := range kb.Keys {
			if _, dup := keyIndex[k.Code]; !dup && k.Code != "" && r != '\n' {
				keyIndex[k.Code] = r
			}
		}
	})
	if r := []rune(name); len(r) == 1 {
		return r[0], true
	}
	r, ok := keyIndex[name]
	return r, ok
}

var modifiers = map[string]chromedp.Modifier{
	"Shift": chromedp.ModifierShift, "Control": chromedp.ModifierCtrl, "Ctrl": chromedp.ModifierCtrl,
	"Alt": chromedp.ModifierAlt, "Meta": chromedp.ModifierMeta,
}

// Press presses and releases one key on whatever has the focus. key is a
// DOM key name ("Tab", "Enter", "Escape", "ArrowDown", "Home", "Backspace"),
// "Space", or one character ("7", "a"), optionally after modifiers:
// "Shift+Tab", "Control+a".
func (p *Page) Press(key string) {
	p.t.Helper()
	var mods []chromedp.Modifier
	name := key
	for {
		m, rest, ok := strings.Cut(name, "+")
		if !ok || rest == "" {
			break
		}
		mod, known := modifiers[m]
		if !known {
			p.t.Fatalf("browser: Press(%q): unknown modifier %q", key, m)
		}
		mods = append(mods, mod)
		name = rest
	}
	r, ok := keyRune(name)
	if !ok {
		p.t.Fatalf("browser: Press(%q): unknown key %q", key, name)
	}
	ctx, cancel := p.callCtx()
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(string(r), chromedp.KeyModifiers(mods...))); err != nil {
		p.t.Fatalf("browser: press %s: %v", key, err)
	}
}
