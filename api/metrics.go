package api

import (
	"context"
	"errors"

	"hackdesk/db"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/platform/apperr"
)

// webhookOutcome is the outcome label of a membership webhook post: the
// receipt's status when it was answered 200 (processing, duplicate,
// parked, ...), rejected (406), else the refusal's class (unauthorized,
// invalid, unavailable, ...), error for a 500 and canceled when the
// provider went away. A small fixed set: nothing the post carries.
func webhookOutcome(stored membership.Stored, err error) string {
	switch {
	case err == nil:
		if stored.Status == "" {
			return "error"
		}
		return string(stored.Status)
	case errors.Is(err, errReceiptRejected):
		return string(membership.ReceiptRejected)
	case errors.Is(err, context.Canceled):
		return "canceled"
	case db.Unreachable(err):
		return string(apperr.Unavailable)
	}
	if e := toAppError(err); e != nil && e.Code != apperr.Internal {
		return string(e.Code)
	}
	return "error"
}
