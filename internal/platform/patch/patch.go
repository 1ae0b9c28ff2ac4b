// Package patch holds the value types of partial updates (PATCH
// bodies): a field that tells absent from null from a value, and a list
// that accepts a comma-separated string or an array.
package patch

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Field is a PATCH field: Set when the key was present, Null when its value
// was null (which clears the field).
type Field[T any] struct {
	Set  bool
	Null bool
	V    T
}

// UnmarshalJSON records that the key was present, and whether it was null.
func (f *Field[T]) UnmarshalJSON(b []byte) error {
	f.Set = true
	if string(b) == "null" {
		f.Null = true
		return nil
	}
	if err := json.Unmarshal(b, &f.V); err != nil {
		return &json.UnmarshalTypeError{Value: "value", Type: reflect.TypeFor[T]()}
	}
	return nil
}

// List accepts "a,b" or ["a","b"] and keeps the comma-separated form the
// service document stores. An array item holding commas counts as several
// items, so both forms give the same canonical list (items trimmed, none
// empty), which decodes again to itself.
type List string

// UnmarshalJSON reads a string or an array of strings.
func (l *List) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*l = List(joinList(strings.Split(s, ",")))
		return nil
	}
	var items []string
	if err := json.Unmarshal(b, &items); err != nil {
		return &json.UnmarshalTypeError{Value: "value", Type: reflect.TypeFor[string]()}
	}
	*l = List(joinList(strings.Split(strings.Join(items, ","), ",")))
	return nil
}

// joinList trims the items, drops empty ones and joins them with commas.
func joinList(items []string) string {
	out := items[:0:0]
	for _, it := range items {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return strings.Join(out, ",")
}

// Value reports whether the field holds a value (set and not null).
func (f Field[T]) Value() bool { return f.Set && !f.Null }
