// Package searchattrs checks that the Temporal namespace knows the custom
// search attributes every hackdesk workflow is started with
// (workflows.KindAttribute, workflows.SubjectAttribute). Without them every
// start fails; a process that finds them missing says so in its log at
// start-up and on /readyz, instead of leaving it to the outbox's lag alert
// minutes later.
package searchattrs

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"

	"hackdesk/workflows"
)

// Names are the custom search attributes hackdesk's workflows carry, all
// of type Keyword.
var Names = []string{workflows.KindAttribute.GetName(), workflows.SubjectAttribute.GetName()}

// The statuses of a check.
const (
	OK      = "ok"
	Missing = "missing"
	// Unknown: the namespace's attributes could not be read (Temporal out
	// of reach, or a server that does not let this client list them).
	Unknown = "unknown"
)

// Result is what a check found.
type Result struct {
	Status  string
	Missing []string // for Missing
}

// recheckAfter is how long a result other than OK is kept before the
// namespace is asked again; OK is kept (attributes are not removed).
const recheckAfter = 10 * time.Second

// Checker checks a namespace's search attributes and remembers the
// answer.
type Checker struct {
	c         client.Client
	namespace string
	log       *slog.Logger

	mu      sync.Mutex
	last    Result
	checked time.Time
}

// New returns a checker of namespace through c; log hears when the
// attributes are found missing, and when they appear.
func New(c client.Client, namespace string, log *slog.Logger) *Checker {
	return &Checker{c: c, namespace: namespace, log: log}
}

// Check answers the namespace's state: the last answer when it was OK or
// is recent, else a fresh one (bounded by ctx).
func (k *Checker) Check(ctx context.Context) Result {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.last.Status == OK || (!k.checked.IsZero() && time.Since(k.checked) < recheckAfter) {
		return k.last
	}
	r := k.read(ctx)
	switch {
	case r.Status == Missing && k.last.Status != Missing:
		k.log.Error("the Temporal namespace lacks hackdesk's search attributes: every workflow start fails until they are created "+
			"(docs/operations.md, \"Temporal search attributes\")",
			"namespace", k.namespace, "missing", r.Missing,
			"create", "temporal operator search-attribute create --namespace "+k.namespace+" --name HackdeskKind --type Keyword --name HackdeskSubject --type Keyword")
	case r.Status == OK && k.last.Status == Missing:
		k.log.Info("the Temporal namespace has hackdesk's search attributes now", "namespace", k.namespace)
	case r.Status == Unknown && k.last.Status == "":
		k.log.Warn("could not read the Temporal namespace's search attributes; will look again", "namespace", k.namespace)
	}
	k.last, k.checked = r, time.Now()
	return r
}

func (k *Checker) read(ctx context.Context) Result {
	resp, err := k.c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: k.namespace})
	if err != nil {
		return Result{Status: Unknown}
	}
	have := resp.GetCustomAttributes()
	var missing []string
	for _, name := range Names {
		if _, ok := have[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return Result{Status: Missing, Missing: missing}
	}
	return Result{Status: OK}
}
