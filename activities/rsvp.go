package activities

import (
	"context"

	"hackdesk/db"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/platform/mail"
)

// The RSVP activities of the RsvpDeadline workflow run the application
// package's offer transactions; their inputs are its types.
type (
	// RsvpEmailsInput names the offers of one deadline.
	RsvpEmailsInput = application.RemindersInput
	// ExpireOffersInput names the decision batch whose deadline has passed.
	ExpireOffersInput = application.ExpireInput
	// OfferEmailsInput names a decision batch whose offers are announced.
	OfferEmailsInput = application.OfferEmailsInput
	// PromoteInput offers freed places to the waitlist.
	PromoteInput = application.PromoteInput
)

// EmailRef is an email recorded for a workflow to send with SendEmail.
type EmailRef = mail.Ref

// RecordRsvpReminders records one reminder per unanswered offer of the
// deadline (application.RecordReminders). Keys are per application and
// deadline, so a retry records nothing new.
func (a *RsvpActivities) RecordRsvpReminders(ctx context.Context, in RsvpEmailsInput) ([]EmailRef, error) {
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		refs, err = application.RecordReminders(ctx, q, in)
		return err
	})
	return refs, err
}

// ExpireOffers expires the batch's unanswered offers due by in.Deadline
// (application.ExpireOffers). Running it again finds nothing to do.
func (a *RsvpActivities) ExpireOffers(ctx context.Context, in ExpireOffersInput) (int, error) {
	var n int
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		n, err = application.ExpireOffers(ctx, q, in)
		return err
	})
	return n, err
}

// RecordOfferEmails records the batch's offer emails
// (application.RecordOfferEmails). Keys are per application and batch, so
// a retry records nothing new.
func (a *RsvpActivities) RecordOfferEmails(ctx context.Context, in OfferEmailsInput) ([]EmailRef, error) {
	var refs []EmailRef
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		refs, err = application.RecordOfferEmails(ctx, q, in)
		return err
	})
	return refs, err
}

// PromoteWaitlist offers freed places to the waitlist as a new decision
// batch (application.PromoteWaitlist). A retry finds the batch and
// promotes no one else.
func (a *RsvpActivities) PromoteWaitlist(ctx context.Context, in PromoteInput) (int, error) {
	var n int
	err := a.Store.InTx(ctx, func(q *db.Queries) (err error) {
		n, err = application.PromoteWaitlist(ctx, q, in)
		return err
	})
	return n, err
}
