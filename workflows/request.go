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
)

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
}

// SearchAttributes are the typed search attributes of r.
func (r Request) SearchAttributes() temporal.SearchAttributes {
	return temporal.NewSearchAttributes(KindAttribute.ValueSet(string(r.Kind)), SubjectAttribute.ValueSet(r.Subject))
}

// SendEmailRequest starts the SendEmail workflow for one recorded email.
// Its subject and summary name the email by its idempotency key, never by
// the recipient: everyone who can open the Temporal UI sees them.
func SendEmailRequest(in SendEmailInput) Request {
	return Request{ID: SendEmailID(in.Key), Type: "SendEmail", Input: in, Kind: KindEmail,
		Subject: in.Key, Summary: "Email " + in.Kind + " " + in.Key}
}

// ResumeCleanupRequest starts the ResumeCleanup workflow for a replaced
// resume.
func ResumeCleanupRequest(in ResumeCleanupInput) Request {
	return Request{ID: ResumeCleanupID(in.OldKey, in.UploadID), Type: "ResumeCleanup", Input: in, Kind: KindResume,
		Subject: in.ProfileID.String(), Summary: "Clean up replaced resume " + in.OldKey}
}

// RsvpDeadlineRequest starts the RsvpDeadline workflow of a decision batch.
func RsvpDeadlineRequest(in RsvpDeadlineInput) Request {
	return Request{ID: RsvpDeadlineID(in.BatchID), Type: "RsvpDeadline", Input: in, Kind: KindRsvp,
		Subject: in.BatchID.String(), Summary: "RSVP deadline " + in.Deadline.UTC().Format("2006-01-02 15:04 MST") + " for offer batch " + in.BatchID.String()}
}

// BroadcastRequest starts the Broadcast workflow of a new broadcast. The
// summary names it by id: its subject line is free text, which may name
// people.
func BroadcastRequest(in BroadcastInput) Request {
	return Request{ID: BroadcastID(in.BroadcastID), Type: "Broadcast", Input: in, Kind: KindBroadcast,
		Subject: in.BroadcastID.String(), Summary: "Broadcast " + in.BroadcastID.String()}
}
