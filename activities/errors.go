package activities

import (
	"context"
	"errors"

	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/temporal"

	"hackdesk/db"
)

// Error types of database errors no retry can fix.
const (
	// ErrTypeDataConflict is a unique or exclusion violation
	// (db.ErrConflict): the row another write made is still there.
	ErrTypeDataConflict = "DataConflict"
	// ErrTypeDataInvalid is a check, not-null or foreign-key violation, or
	// a value the column cannot hold (db.ErrInvalid).
	ErrTypeDataInvalid = "DataInvalid"
)

// Classify is the one place an activity's error is judged permanent or
// not, for every activity the worker runs (Interceptors). The retry
// policies retry for a day, which is right for an outage and wrong for a
// constraint violation: the same write breaks the same rule every time.
// So db.ErrConflict and db.ErrInvalid (ConstraintError included) become
// non-retryable application errors. An application error the activity
// made itself is left as it is: an activity that expects a conflict to
// pass (a race with a concurrent insert) says so with a retryable one, and
// one that knows a missing row is final (a term that no longer exists)
// says so with a non-retryable one. Everything else (a dropped
// connection, a serialization failure, a timeout) stays retryable.
func Classify(err error) error {
	var app *temporal.ApplicationError
	if err == nil || errors.As(err, &app) {
		return err
	}
	switch {
	case errors.Is(err, db.ErrConflict):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeDataConflict, err)
	case errors.Is(err, db.ErrInvalid):
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeDataInvalid, err)
	}
	return err
}

// Interceptors are the worker interceptors every hackdesk worker runs:
// Classify on the error of every activity, local ones included.
func Interceptors() []interceptor.WorkerInterceptor {
	return []interceptor.WorkerInterceptor{&classifier{}}
}

type classifier struct {
	interceptor.WorkerInterceptorBase
}

func (*classifier) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &classifyErrors{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}}
}

type classifyErrors struct {
	interceptor.ActivityInboundInterceptorBase
}

func (c *classifyErrors) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	res, err := c.Next.ExecuteActivity(ctx, in)
	return res, Classify(err)
}
