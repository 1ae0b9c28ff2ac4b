// Package freetext holds the one rule of the text people type into the
// service: no control or format characters (Unicode Cc, Cf: NUL, BEL,
// escape, tabs and line breaks, bidi overrides and isolates, zero-width
// characters) and no line or paragraph separators (Zl, Zp). Such
// characters reorder the text around them in pages and emails ("Eve‮gpj.exe"
// shows as "Eveexe.jpg"), break lines in exports, or ring terminals. A
// multi-line field (an answer, a description, an email's body) also takes
// line feeds, carriage returns and tabs.
//
// The API's decoder applies Check to every request body: a string field
// is one line unless its struct tag says `text:"lines"` (multi-line) or
// `text:"any"` (a password: any character a person can type is theirs).
package freetext

import (
	"reflect"
	"strings"
	"unicode"
)

// Reasons a text is refused.
const (
	LineReason  = "must not contain control or format characters (line breaks, tabs, direction overrides, zero-width characters)"
	LinesReason = "must not contain control or format characters (direction overrides, zero-width characters) other than line breaks and tabs"
)

// Line returns why s is not acceptable one-line text, or "".
func Line(s string) string {
	if strings.IndexFunc(s, forbidden) >= 0 {
		return LineReason
	}
	return ""
}

// Lines returns why s is not acceptable multi-line text, or "": as Line,
// with line feeds, carriage returns and tabs allowed.
func Lines(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r != '\n' && r != '\r' && r != '\t' && forbidden(r) }) >= 0 {
		return LinesReason
	}
	return ""
}

func forbidden(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Tag values of the `text` struct tag.
const (
	tagLines = "lines" // a multi-line field
	tagAny   = "any"   // not free text (a password): not checked
)

// Check walks v, a decoded request body (a pointer to a struct, usually),
// and returns the reason of each field holding text that Line (or Lines,
// for a field tagged `text:"lines"`) refuses, under the field's JSON name;
// a nested object's fields are named "parent.child", a map's values
// "parent.key", a list's items by the list's name. Fields without a JSON
// name (patch.Field's value, say) take their parent's; unexported and
// `json:"-"` fields are not read. Empty when every text is acceptable.
func Check(v any) map[string]string {
	out := map[string]string{}
	walk(reflect.ValueOf(v), "", "", out)
	return out
}

func walk(v reflect.Value, name, mode string, out map[string]string) {
	if mode == tagAny {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), name, mode, out)
		}
	case reflect.String:
		rule := Line
		if mode == tagLines {
			rule = Lines
		}
		if why := rule(v.String()); why != "" {
			if _, ok := out[name]; !ok {
				out[name] = why
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walk(v.Index(i), name, mode, out)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			key := name
			if k := iter.Key(); k.Kind() == reflect.String {
				if Line(k.String()) != "" {
					walk(k, name, "", out) // the key itself is refused, under the map's name
					continue
				}
				key = join(name, k.String())
			}
			walk(iter.Value(), key, mode, out)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			field, m := name, mode
			if tag, ok := f.Tag.Lookup("json"); ok {
				n, _, _ := strings.Cut(tag, ",")
				if n == "-" {
					continue
				}
				if n != "" {
					field = join(name, n)
				}
			} else if name == "" {
				field = f.Name // encoding/json's name for an untagged field
			}
			if tag, ok := f.Tag.Lookup("text"); ok {
				m = tag
			}
			walk(v.Field(i), field, m, out)
		}
	}
}

func join(parent, child string) string {
	if parent == "" {
		return child
	}
	return parent + "." + child
}
