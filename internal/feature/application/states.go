// Package application holds the rules and transactions of a hackathon
// application. This file names the states it moves through: its status,
// the organisers' decision and the applicant's RSVP. Each set is also a
// CHECK constraint on the applications table (db/migrations); a test in
// package db keeps the two equal.
package application

import "slices"

// Status is where an application is in its applicant's hands
// (applications.status).
type Status string

const (
	StatusDraft     Status = "draft"     // being filled in; the applicant may change it
	StatusSubmitted Status = "submitted" // final; reviewed and decided on
)

// Statuses lists every Status, in the order clients are told them.
func Statuses() []Status { return []Status{StatusDraft, StatusSubmitted} }

// Decision is the organisers' decision on a submitted application
// (applications.decision; NULL until decided).
type Decision string

const (
	DecisionOffer    Decision = "offer" // a place, to be answered by the RSVP deadline
	DecisionWaitlist Decision = "waitlist"
	DecisionReject   Decision = "reject"
)

// Decisions lists every Decision, in the order clients are told them.
func Decisions() []Decision { return []Decision{DecisionOffer, DecisionWaitlist, DecisionReject} }

// Valid reports whether d is one of Decisions.
func (d Decision) Valid() bool { return slices.Contains(Decisions(), d) }

// Rsvp is the answer to an offer (applications.rsvp; NULL until answered).
type Rsvp string

const (
	RsvpAttending Rsvp = "attending"
	RsvpDeclined  Rsvp = "declined"
	RsvpExpired   Rsvp = "expired" // no answer by the deadline; set by the system
)

// Rsvps lists every Rsvp.
func Rsvps() []Rsvp { return []Rsvp{RsvpAttending, RsvpDeclined, RsvpExpired} }
