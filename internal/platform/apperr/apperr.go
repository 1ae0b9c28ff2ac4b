// Package apperr is hackdesk's one application error type. Handlers and
// domain code return *Error for anything a client should see; every other
// error is internal and reaches the client only as a generic message.
package apperr

import (
	"errors"
	"fmt"
)

// Code classifies an error; the api package maps each code to one status.
type Code string

const (
	Invalid      Code = "invalid"
	Unauthorized Code = "unauthorized"
	Forbidden    Code = "forbidden"
	NotFound     Code = "not_found"
	Conflict     Code = "conflict"
	// Unprocessable is a well-formed request that cannot be honoured as
	// sent (an idempotency key reused with another body).
	Unprocessable Code = "unprocessable"
	// NotAcceptable is a signed inbound post whose content is refused for
	// good (a receipt failing its DKIM check): the sender must not retry.
	NotAcceptable Code = "not_acceptable"
	TooLarge      Code = "too_large"
	Unsupported   Code = "unsupported"
	RateLimited   Code = "rate_limited"
	Unavailable   Code = "unavailable"
	Internal      Code = "internal"

	// Timeout is a client too slow to send its request (an upload's body).
	Timeout Code = "timeout"
)

// Error is an error meant for the client. Title becomes the body's "error"
// field, Message its optional "message" and Details the per-field reasons
// of a validation failure.
type Error struct {
	Code    Code
	Title   string
	Message string
	Details map[string]string
}

func (e *Error) Error() string {
	if e.Message != "" {
		return fmt.Sprintf("%s: %s: %s", e.Code, e.Title, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Title)
}

// New returns an error with a title and no message.
func New(code Code, title string) *Error { return &Error{Code: code, Title: title} }

// WithMessage returns an error with a title and a message.
func WithMessage(code Code, title, message string) *Error {
	return &Error{Code: code, Title: title, Message: message}
}

// ValidationFailed is the service document's schema failure: 400 with the
// message "Validation failed" and the reason for each failing field.
func ValidationFailed(details map[string]string) *Error {
	msg := "One or more fields are invalid"
	if len(details) == 1 {
		for f, reason := range details {
			msg = f + ": " + reason
		}
	}
	return &Error{Code: Invalid, Title: "Validation failed", Message: msg, Details: details}
}

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Fields collects per-field validation reasons; the first reason for a
// field wins.
type Fields map[string]string

// Add records reason for field unless the field already has one.
func (f Fields) Add(field, reason string) {
	if _, ok := f[field]; !ok {
		f[field] = reason
	}
}

// Err returns a ValidationFailed error, or nil when no field failed.
func (f Fields) Err() error {
	if len(f) == 0 {
		return nil
	}
	return ValidationFailed(f)
}
