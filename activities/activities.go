// Package activities holds every Temporal activity. Activities are grouped
// by feature in structs whose fields are their dependencies; the worker
// registers a pointer to each, and workflows refer to the methods through
// a nil pointer of the struct. Each activity is safe to run more than once
// with the same input: it re-reads what it needs and writes under an
// idempotency key or a conditional update.
package activities

import (
	"hackdesk/db"
	"hackdesk/internal/platform/codehost"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/signing"
	"hackdesk/internal/platform/storage"
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

// Deps are the dependencies of every activity. The worker's wiring
// (app.Activities) fills them all from the configuration, and NewSet builds
// each activity struct from them, complete: no field is set later.
type Deps struct {
	Store    *db.Store
	Blob     *storage.Store
	Mailer   mail.Sender
	MailFrom string
	// KeepSecretBodies is EmailActivities.KeepSecretBodies.
	KeepSecretBodies bool
	// CodeHost is the Foundry's code host; nil fails each launch with
	// ErrTypeNotConfigured.
	CodeHost *codehost.Client
	// Unsubscribe signs unsubscribe tokens (from SIGNING_KEY); nil makes a
	// broadcast batch refuse to send.
	Unsubscribe *signing.Signer
	// Tickets signs the event day's ticket links; nil makes the EventDay
	// workflow's ticket emails refuse.
	Tickets *signing.Signer
	// BroadcastRate is BROADCAST_RATE (BroadcastActivities.Rate).
	BroadcastRate float64
	// DuesCents is MEMBERSHIP_DUES_CENTS.
	DuesCents int64
	// RetentionDays is RETENTION_DAYS (RetentionActivities).
	RetentionDays int
	// PublicURL is the worker's PUBLIC_URL (TermActivities.PublicURL).
	PublicURL string
}

// Set is every activity struct of the service, as the worker registers
// them.
type Set struct {
	Email     *EmailActivities
	Rsvp      *RsvpActivities
	Resume    *ResumeActivities
	Hiring    *HiringActivities
	Foundry   *FoundryActivities
	Term      *TermActivities
	Headshot  *HeadshotActivities
	Receipt   *ReceiptActivities
	Broadcast *BroadcastActivities
	Sweep     *SweepActivities
	Hackathon *HackathonActivities
	Erasure   *ErasureActivities
	Retention *RetentionActivities
}

// NewSet builds every activity struct from d.
func NewSet(d Deps) Set {
	email := &EmailActivities{Store: d.Store, Mailer: d.Mailer, MailFrom: d.MailFrom, KeepSecretBodies: d.KeepSecretBodies}
	return Set{
		Email:     email,
		Rsvp:      &RsvpActivities{Store: d.Store},
		Resume:    &ResumeActivities{Store: d.Store, Blob: d.Blob},
		Hiring:    &HiringActivities{Store: d.Store},
		Foundry:   &FoundryActivities{Store: d.Store, Host: d.CodeHost},
		Term:      &TermActivities{Store: d.Store, PublicURL: d.PublicURL},
		Headshot:  &HeadshotActivities{Store: d.Store, Blob: d.Blob},
		Receipt:   &ReceiptActivities{Store: d.Store, DuesCents: d.DuesCents},
		Broadcast: &BroadcastActivities{Store: d.Store, Email: email, Unsubscribe: d.Unsubscribe, Rate: d.BroadcastRate},
		Sweep:     &SweepActivities{Store: d.Store},
		Hackathon: &HackathonActivities{Store: d.Store, Unsubscribe: d.Unsubscribe, Tickets: d.Tickets, PublicURL: d.PublicURL},
		Erasure:   &ErasureActivities{Store: d.Store, Blob: d.Blob},
		Retention: &RetentionActivities{Store: d.Store, Blob: d.Blob, RetentionDays: d.RetentionDays},
	}
}

// All lists the structs for registration.
func (s Set) All() []any {
	return []any{s.Email, s.Rsvp, s.Resume, s.Hiring, s.Foundry, s.Term, s.Headshot, s.Receipt, s.Broadcast, s.Sweep, s.Hackathon, s.Erasure, s.Retention}
}
