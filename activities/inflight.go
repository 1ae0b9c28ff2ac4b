package activities

import (
	"context"
	"sync"

	"go.temporal.io/sdk/interceptor"
)

// InFlight counts the activity executions running in the process, local
// activities included. A worker that stops cancels the activities still
// running after its stop timeout and returns at once, while their
// bookkeeping (the writes after a send, which run even when the activity
// is cancelled: DeliverEmail, SendBroadcastBatch) goes on; a process
// waits for InFlight to drain before it closes the database pool, or a
// delivered email is left "sending".
type InFlight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n is 0
}

// NewInFlight returns a count at zero.
func NewInFlight() *InFlight {
	f := &InFlight{idle: make(chan struct{})}
	close(f.idle)
	return f
}

func (f *InFlight) add(d int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 && d > 0 {
		f.idle = make(chan struct{})
	}
	f.n += d
	if f.n == 0 {
		close(f.idle)
	}
}

// Running is how many activity executions have not returned.
func (f *InFlight) Running() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// Wait blocks until no activity execution runs, or ctx ends (its error).
func (f *InFlight) Wait(ctx context.Context) error {
	for {
		f.mu.Lock()
		idle, n := f.idle, f.n
		f.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Interceptor counts every activity execution of the workers it is given
// to, from its start until its function returns.
func (f *InFlight) Interceptor() interceptor.WorkerInterceptor { return &inFlightWorker{f: f} }

type inFlightWorker struct {
	interceptor.WorkerInterceptorBase
	f *InFlight
}

func (w *inFlightWorker) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	return &inFlightActivity{ActivityInboundInterceptorBase: interceptor.ActivityInboundInterceptorBase{Next: next}, f: w.f}
}

type inFlightActivity struct {
	interceptor.ActivityInboundInterceptorBase
	f *InFlight
}

func (a *inFlightActivity) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	a.f.add(1)
	defer a.f.add(-1)
	return a.Next.ExecuteActivity(ctx, in)
}
