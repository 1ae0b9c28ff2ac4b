package api

import "hackdesk/patch"

// field is a PATCH field: Set when the key was present, Null when its value
// was null (which clears the field).
type field[T any] = patch.Field[T]

// listOrString accepts "a,b" or ["a","b"] and keeps the comma-separated
// form the service document stores (patch.List).
type listOrString = patch.List
