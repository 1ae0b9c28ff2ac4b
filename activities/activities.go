// Package activities holds every Temporal activity. Activities are grouped
// by feature in structs whose fields are their dependencies; the worker
// registers a pointer to each, and workflows refer to the methods through
// a nil pointer of the struct. Each activity is safe to run more than once
// with the same input: it re-reads what it needs and writes under an
// idempotency key or a conditional update.
package activities

import (
	"hackdesk/db"
	"hackdesk/mail"
	"hackdesk/storage"
)

// EmailActivities record and deliver emails.
type EmailActivities struct {
	Store    *db.Store
	Mailer   mail.Sender
	MailFrom string
	// KeepSecretBodies keeps the bodies of secret-bearing emails (links
	// with one-time tokens) in the audit trail after delivery. Only the
	// local stack sets it (config.Config.MailCatcher); everywhere else they
	// are replaced by mail.RedactedText once sent or given up.
	KeepSecretBodies bool
}

// RsvpActivities announce, remind and expire hackathon offers.
type RsvpActivities struct {
	Store *db.Store
}

// ResumeActivities clean up replaced resumes.
type ResumeActivities struct {
	Store *db.Store
	Blob  *storage.Store
}

// HiringActivities finalize exec hiring: promotions, demotions and
// welcome emails.
type HiringActivities struct {
	Store *db.Store
}

// Set is every activity struct of the service, as the worker registers
// them.
type Set struct {
	Email  *EmailActivities
	Rsvp   *RsvpActivities
	Resume *ResumeActivities
	Hiring *HiringActivities
	// Foundry has no code host until the app sets one (app.Activities).
	Foundry  *FoundryActivities
	Term     *TermActivities
	Headshot *HeadshotActivities
	// Receipt has the default dues until the app sets MEMBERSHIP_DUES_CENTS.
	Receipt *ReceiptActivities
	// Broadcast has no unsubscribe signer, public URL or rate until the
	// app sets them (app.Activities).
	Broadcast *BroadcastActivities
}

// NewSet builds every activity struct from the shared dependencies.
func NewSet(store *db.Store, blob *storage.Store, mailer mail.Sender, mailFrom string) Set {
	return Set{
		Email:     &EmailActivities{Store: store, Mailer: mailer, MailFrom: mailFrom},
		Rsvp:      &RsvpActivities{Store: store},
		Resume:    &ResumeActivities{Store: store, Blob: blob},
		Hiring:    &HiringActivities{Store: store},
		Foundry:   &FoundryActivities{Store: store},
		Term:      &TermActivities{Store: store},
		Headshot:  &HeadshotActivities{Store: store, Blob: blob},
		Receipt:   &ReceiptActivities{Store: store, DuesCents: 2000},
		Broadcast: &BroadcastActivities{Store: store, Mailer: mailer, MailFrom: mailFrom},
	}
}

// All lists the structs for registration.
func (s Set) All() []any {
	return []any{s.Email, s.Rsvp, s.Resume, s.Hiring, s.Foundry, s.Term, s.Headshot, s.Receipt, s.Broadcast}
}
