// Package patch holds the field of a PATCH request body, which tells an
// absent key, a null and a value apart. Feature packages use it in their
// request types, and the API decodes into them.
package patch

import (
	"encoding/json"
	"reflect"
)

// Field is a PATCH field: Set when the key was present, Null when its
// value was null (which clears the field).
type Field[T any] struct {
	Set  bool
	Null bool
	V    T
}

// UnmarshalJSON records that the key was present, and whether its value
// was null. A value of the wrong type is refused as a type error, which
// the API reports against the field.
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
