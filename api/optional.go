package api

import (
	"encoding/json"
	"reflect"
	"strings"

	"hackdesk/patch"
)

// field is a PATCH field (patch.Field): Set when the key was present,
// Null when its value was null (which clears the field).
type field[T any] = patch.Field[T]

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
