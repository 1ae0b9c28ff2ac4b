package workflows

import (
	"go.temporal.io/sdk/temporal"
)

// Kind is the HackdeskKind search attribute: what a workflow is about, so
// admins can filter runs in the Temporal UI.
type Kind string

// The kinds of workflow, one per business process.
const (
	KindHiring    Kind = "hiring"
	KindReceipt   Kind = "receipt"
	KindTerm      Kind = "term"
	KindFoundry   Kind = "foundry"
	KindResume    Kind = "resume"
	KindRsvp      Kind = "rsvp"
	KindBroadcast Kind = "broadcast"
	KindEmail     Kind = "email"
	// KindApplicationWindow is a hackathon edition's application window.
	KindApplicationWindow Kind = "application-window"
	// KindErase is an account's erasure (subject: the profile id).
	KindErase Kind = "erase"
	// KindEventDay is a hackathon edition's event day (tickets, thanks).
	KindEventDay Kind = "event-day"
	// The scheduled workflows: Sweep, TermReconcile and Retention.
	KindSweep     Kind = "sweep"
	KindReconcile Kind = "reconcile"
	KindRetention Kind = "retention"
)

// Kinds are every Kind, in the order the operator's page lists them: the
// failures it counts and the runs it lists are of these kinds only, so a
// new kind is added here too (a test holds the list complete).
var Kinds = []Kind{
	KindHiring, KindReceipt, KindTerm, KindFoundry, KindResume, KindRsvp, KindBroadcast, KindEmail,
	KindApplicationWindow, KindEventDay, KindErase, KindSweep, KindReconcile, KindRetention,
}

// The custom search attributes every workflow carries. The Temporal server
// must know them (`hackdesk dev` registers them; see docs/operations.md).
var (
	KindAttribute    = temporal.NewSearchAttributeKeyKeyword("HackdeskKind")
	SubjectAttribute = temporal.NewSearchAttributeKeyKeyword("HackdeskSubject")
)

// Request is everything needed to start one workflow: its business-key ID,
// registered type name and input, and what the Temporal UI shows about it.
// Requests travel through the outbox (package outbox), so Input must
// marshal to JSON.
type Request struct {
	ID    string
	Type  string // the registered workflow name, e.g. "SendEmail"
	Input any
	Kind  Kind
	// Subject is HackdeskSubject, the business key admins search by, and
	// Summary the static summary the UI shows. Both are visible to everyone
	// who can open the UI and are not encrypted: ids and keys only, never
	// an email address or a person's name.
	Subject string
	Summary string
	// TaskQueue overrides the dispatcher's task queue when set.
	TaskQueue string
	// Signal, when set, makes this a signal-with-start: the signal is sent
	// to the running workflow, which is started first if it is not running.
	Signal      string
	SignalInput any
	// Retry numbers a superadmin's retry of a failed run (0: the original
	// start). A retry may start a new run under an ID whose last run
	// failed, and only then.
	Retry int
}

// SearchAttributes are the typed search attributes of r.
func (r Request) SearchAttributes() temporal.SearchAttributes {
	return temporal.NewSearchAttributes(KindAttribute.ValueSet(string(r.Kind)), SubjectAttribute.ValueSet(r.Subject))
}
