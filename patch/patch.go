// Package patch holds the field type of request bodies that tell a
// missing key from a null one: a PATCH leaves a missing field alone and
// clears a null one. Feature packages declare their request types with it.
package patch

import (
	"encoding/json"
	"reflect"
)

// Field is a request field: Set when the key was present, Null when its
// value was null (which clears the field), V the value otherwise.
type Field[T any] struct {
	Set  bool
	Null bool
	V    T
}

// UnmarshalJSON marks the field set, and null or decoded. A value of the
// wrong type is a *json.UnmarshalTypeError naming T, which the API
// answers as a 400 on the field.
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

// Value reports whether the field holds a value (set and not null).
func (f Field[T]) Value() bool { return f.Set && !f.Null }
