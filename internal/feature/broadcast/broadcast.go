// Package broadcast holds the rules of admin email broadcasts: who an
// audience is, what a broadcast may say, the states it moves through, the
// key each of its emails is recorded under and the one-click unsubscribe
// link (RFC 8058) every one of them carries; and the transactions that
// apply them: composing a broadcast with its recipient list, listing and
// cancelling broadcasts, preparing, recording and counting the batches of
// its workflow, ending it, and unsubscribing. The API and the Broadcast
// workflow's activities go through these.
package broadcast

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/internal/platform/freetext"
)

// Status is where a broadcast is (broadcasts.status).
type Status string

const (
	Sending   Status = "sending"   // its workflow is sending
	Done      Status = "done"      // every recipient was tried
	Cancelled Status = "cancelled" // stopped before the end
)

// Statuses lists every Status.
func Statuses() []Status { return []Status{Sending, Done, Cancelled} }

// Kind is who an audience is (broadcasts.audience_kind).
type Kind string

const (
	Members     Kind = "members"      // members of a term, paid or not
	PaidMembers Kind = "paid_members" // members of a term who have paid
	Execs       Kind = "execs"        // holders of an active exec role
	Applicants  Kind = "applicants"   // people with a submitted application of the current hackathon
	// Marketing is everyone who accepts marketing email: always a
	// marketing broadcast (the opening of a hackathon is announced to it).
	Marketing Kind = "marketing"
)

// Kinds lists every Kind, in the order clients are told them.
func Kinds() []Kind { return []Kind{Members, PaidMembers, Execs, Applicants, Marketing} }

// Valid reports whether k is one of Kinds.
func (k Kind) Valid() bool { return slices.Contains(Kinds(), k) }

// ByTerm reports whether the audience is of one term (the active one
// unless named).
func (k Kind) ByTerm() bool { return k == Members || k == PaidMembers }

// Decision filters applicants by the decision on their application; None
// is an application not decided yet (broadcasts.decision).
type Decision string

const (
	Offer    Decision = "offer"
	Waitlist Decision = "waitlist"
	Reject   Decision = "reject"
	None     Decision = "none"
)

// Decisions lists every Decision filter.
func Decisions() []Decision { return []Decision{Offer, Waitlist, Reject, None} }

// RecipientStatus is where one recipient of a broadcast is
// (broadcast_recipients.status).
type RecipientStatus string

const (
	Pending RecipientStatus = "pending"
	Sent    RecipientStatus = "sent"
	Failed  RecipientStatus = "failed" // rejected, or the outcome of an attempt is unknown
	// Skipped: a marketing broadcast's recipient who unsubscribed after it
	// was created, seen when their batch was about to send.
	Skipped RecipientStatus = "skipped"
)

// RecipientStatuses lists every RecipientStatus.
func RecipientStatuses() []RecipientStatus { return []RecipientStatus{Pending, Sent, Failed, Skipped} }

// Limits of what a broadcast says.
const (
	MaxSubject = 200    // characters
	MaxBody    = 50_000 // characters
)

// EmailKind is the template of a broadcast email (mail.Render): the
// broadcast's subject and body.
const EmailKind = "broadcast"

// Audience is who a broadcast goes to: a kind, the term of a by-term kind
// and, for applicants, an optional decision filter.
type Audience struct {
	Kind     Kind
	HasTerm  bool
	Decision *Decision
}

// CheckAudience returns the reason for each field of the audience that
// breaks the rules, keyed by the field's name in the request
// ("audience.kind", "audience.term_id", "audience.status"); nil when it is
// fine. Only members and paid_members take a term; only applicants take a
// status.
func CheckAudience(a Audience) map[string]string {
	bad := map[string]string{}
	if !a.Kind.Valid() {
		bad["audience.kind"] = "must be one of " + join(Kinds())
		return bad
	}
	if a.HasTerm && !a.Kind.ByTerm() {
		bad["audience.term_id"] = fmt.Sprintf("only %s and %s are of a term", Members, PaidMembers)
	}
	switch {
	case a.Decision != nil && a.Kind != Applicants:
		bad["audience.status"] = "only applicants are filtered by decision"
	case a.Decision != nil && !slices.Contains(Decisions(), *a.Decision):
		bad["audience.status"] = "must be one of " + join(Decisions())
	}
	if len(bad) == 0 {
		return nil
	}
	return bad
}

// CheckSubject returns why s cannot be a broadcast's subject, or "". It
// becomes every email's Subject header, so it is one line without control
// or format characters (freetext.Line, which the API's decoder also
// applies).
func CheckSubject(s string) string {
	switch {
	case strings.TrimSpace(s) == "":
		return "is required"
	case !utf8.ValidString(s):
		return "must be UTF-8"
	case utf8.RuneCountInString(s) > MaxSubject:
		return fmt.Sprintf("must be at most %d characters", MaxSubject)
	case freetext.Line(s) != "":
		return freetext.Line(s)
	}
	return ""
}

// CheckBody returns why s cannot be a broadcast's body, or "".
func CheckBody(s string) string {
	switch {
	case strings.TrimSpace(s) == "":
		return "is required"
	case !utf8.ValidString(s):
		return "must be UTF-8"
	case utf8.RuneCountInString(s) > MaxBody:
		return fmt.Sprintf("must be at most %d characters", MaxBody)
	}
	return ""
}

// EmailKey is the idempotency key of the broadcast's email to one
// recipient: a retried batch records and sends nothing twice.
func EmailKey(id, profileID uuid.UUID) string {
	return "broadcast:" + id.String() + ":" + profileID.String()
}

func join[T ~string](set []T) string {
	s := make([]string, len(set))
	for i, v := range set {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}
