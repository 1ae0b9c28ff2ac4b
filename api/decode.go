package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"

	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/freetext"
)

// maxJSONBody caps every JSON request body at 1 MiB; a longer body is
// answered 413 without being read to the end.
const maxJSONBody = 1 << 20

// validator is implemented by request types that check their own fields;
// it returns the reason for each failing field, or nil.
type validator interface {
	Validate() apperr.Fields
}

// decode reads one JSON value from r's body into v. It caps the body,
// rejects unknown fields, trailing data, non-JSON content types and text
// holding NUL (\u0000, which no PostgreSQL text value can hold), refuses
// control and format characters in every text field (freetext.Check: one
// line unless tagged `text:"lines"`), runs v's Validate when it has one,
// and returns the 400 (or 413/415) error of any failure. w goes to
// http.MaxBytesReader, which has the server close the connection after an
// oversized body.
func decode(w http.ResponseWriter, r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return apperr.WithMessage(apperr.Unsupported, "Unsupported media type", "Send the body as application/json")
		}
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxJSONBody)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return decodeError(err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return apperr.WithMessage(apperr.Invalid, "Invalid JSON", "The body must hold a single JSON value")
	}
	if escapesNUL(body) {
		return errNUL
	}
	// Every text field is checked for control and format characters
	// (package freetext), then v checks its own rules; one 400 names every
	// failing field, the character rule first.
	fields := apperr.Fields(freetext.Check(v))
	if val, ok := v.(validator); ok {
		for name, why := range val.Validate() {
			fields.Add(name, why)
		}
	}
	return fields.Err()
}

var errNUL = apperr.WithMessage(apperr.Invalid, "Invalid JSON", `Text may not contain the NUL character (\u0000)`)

// escapesNUL reports whether the well-formed JSON in body writes a NUL
// character. JSON can write one only as the escape \u0000 (a raw control
// character is a syntax error), and a backslash occurs only inside
// strings, so a scan of the escapes is exact.
func escapesNUL(body []byte) bool {
	for i := bytes.IndexByte(body, '\\'); i >= 0 && i+1 < len(body); {
		if body[i+1] == 'u' && bytes.HasPrefix(body[i+2:], []byte("0000")) {
			return true
		}
		j := bytes.IndexByte(body[i+2:], '\\') // skip the escaped character
		if j < 0 {
			break
		}
		i += 2 + j
	}
	return false
}

func decodeError(err error) error {
	var (
		maxErr    *http.MaxBytesError
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &maxErr):
		return apperr.WithMessage(apperr.TooLarge, "Request body too large",
			fmt.Sprintf("The body may be at most %d bytes", maxErr.Limit))
	case errors.Is(err, os.ErrDeadlineExceeded):
		return apperr.WithMessage(apperr.Timeout, "Request timeout", "The body was not received in time")
	case errors.Is(err, io.EOF):
		return apperr.WithMessage(apperr.Invalid, "Invalid JSON", "The request body is empty")
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
		return apperr.WithMessage(apperr.Invalid, "Invalid JSON", "The request body is not valid JSON")
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			return apperr.WithMessage(apperr.Invalid, "Invalid JSON", "The body must be a JSON object")
		}
		return apperr.ValidationFailed(apperr.Fields{field: "must be " + jsonKind(typeErr.Type.Kind().String())})
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return apperr.ValidationFailed(apperr.Fields{name: "unknown field"})
	}
	return apperr.WithMessage(apperr.Invalid, "Invalid JSON", "The request body could not be read")
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	case "float32", "float64":
		return "a number"
	case "slice", "array":
		return "an array"
	case "map", "struct", "ptr":
		return "an object"
	}
	return "of another type"
}
