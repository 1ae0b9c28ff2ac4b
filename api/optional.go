package api

import (
	"encoding/json"
	"reflect"
	"strings"
)

// field is a PATCH field: Set when the key was present, Null when its value
// was null (which clears the field).
type field[T any] struct {
	Set  bool
	Null bool
	V    T
}

func (f *field[T]) UnmarshalJSON(b []byte) error {
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

// listOrString accepts "a,b" or ["a","b"] and keeps the comma-separated
// form the service document stores. An array item holding commas counts as
// several items, so both forms give the same canonical list (items trimmed,
// none empty), which decodes again to itself.
type listOrString string

func (l *listOrString) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*l = listOrString(joinList(strings.Split(s, ",")))
		return nil
	}
	var items []string
	if err := json.Unmarshal(b, &items); err != nil {
		return &json.UnmarshalTypeError{Value: "value", Type: reflect.TypeFor[string]()}
	}
	*l = listOrString(joinList(strings.Split(strings.Join(items, ","), ",")))
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
