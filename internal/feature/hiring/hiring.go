// Package hiring holds the rules of exec hiring: the selection statuses,
// who may set which, which moves are allowed, and a VP's scope.
package hiring

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/google/uuid"

	"hackdesk/internal/feature/term"
)

// Status is a selection's review status (the same strings in the API and
// the database).
type Status string

// The statuses in review order. The first four are the review statuses a
// VP may set; the rest only a President.
const (
	InReview      Status = "in_review"
	Interviewing  Status = "interviewing"
	Wanted        Status = "wanted"
	NotWanted     Status = "not_wanted"
	OfferSent     Status = "offer_sent"
	AcceptedOffer Status = "accepted_offer"
	DeclinedOffer Status = "declined_offer"
	RejectionSent Status = "rejection_sent"
)

// Statuses lists every status.
func Statuses() []Status {
	return []Status{InReview, Interviewing, Wanted, NotWanted, OfferSent, AcceptedOffer, DeclinedOffer, RejectionSent}
}

// Valid reports whether s is a known status.
func (s Status) Valid() bool {
	for _, v := range Statuses() {
		if s == v {
			return true
		}
	}
	return false
}

// review reports whether s is one of the four review statuses.
func (s Status) review() bool {
	return s == InReview || s == Interviewing || s == Wanted || s == NotWanted
}

// Emails reports whether reaching s emails the applicant.
func (s Status) Emails() bool { return s == OfferSent || s == RejectionSent }

// Role is the hiring role a caller acts in.
type Role string

// The hiring roles: a VP reviews their subteam; a President (or a
// superadmin, who acts as one) decides for every subteam.
const (
	VP        Role = term.PositionVP
	President Role = term.PositionPresident
)

// ErrRole is a VP setting a status only a President may set.
var ErrRole = errors.New("only the President may set this status")

// MoveError is a move the status machine does not allow.
type MoveError struct{ From, To Status }

func (e *MoveError) Error() string { return fmt.Sprintf("cannot move from %s to %s", e.From, e.To) }

// CanMove checks one status change by a caller in role, in the order the
// API answers: the role first (ErrRole), then the move (*MoveError). The
// same status again is allowed (and changes nothing). Allowed moves: among
// the four review statuses freely; wanted to offer_sent; any review status
// to rejection_sent; offer_sent to accepted_offer or declined_offer.
// accepted_offer, declined_offer and rejection_sent are final.
func CanMove(role Role, from, to Status) error {
	if !from.Valid() || !to.Valid() {
		return &MoveError{From: from, To: to}
	}
	if role != President && !to.review() {
		return ErrRole
	}
	if from == to {
		return nil
	}
	ok := false
	switch {
	case from.review() && to.review():
		ok = true
	case from == Wanted && to == OfferSent:
		ok = true
	case from.review() && to == RejectionSent:
		ok = true
	case from == OfferSent && (to == AcceptedOffer || to == DeclinedOffer):
		ok = true
	}
	if !ok {
		return &MoveError{From: from, To: to}
	}
	return nil
}

// AllowedStatuses lists the statuses a caller in role may move a
// selection at from to (CanMove), in review order; the status it holds is
// not one of them. A final status allows none.
func AllowedStatuses(role Role, from Status) []Status {
	out := []Status{}
	for _, to := range Statuses() {
		if to != from && CanMove(role, from, to) == nil {
			out = append(out, to)
		}
	}
	return out
}

// Scope is which selections a caller sees and changes: every subteam's
// (All) or one subteam's.
type Scope struct {
	All     bool
	Subteam string
}

// ScopeOf resolves a caller's scope from their role and active exec role:
// a superadmin or President sees everything, a VP their subteam, anyone
// else nothing (ok false).
func ScopeOf(superadmin bool, execPosition, execSubteam string) (Scope, Role, bool) {
	switch {
	case superadmin || execPosition == string(President):
		return Scope{All: true}, President, true
	case execPosition == string(VP) && execSubteam != "":
		return Scope{Subteam: execSubteam}, VP, true
	}
	return Scope{}, "", false
}

// Actor is who acts in hiring: their account (the conflict-of-interest
// rule reads it), their scope and the role they act in.
type Actor struct {
	ProfileID uuid.UUID
	Email     string
	Scope     Scope
	Role      Role
}

// NewActor resolves a caller's Actor (ScopeOf). Someone with no hiring
// scope sees nothing and acts as a VP of no subteam; the API's policy
// gate lets only VPs and Presidents reach hiring, so this is a backstop.
func NewActor(profileID uuid.UUID, email string, superadmin bool, execPosition, execSubteam string) Actor {
	scope, role, ok := ScopeOf(superadmin, execPosition, execSubteam)
	if !ok {
		scope, role = Scope{Subteam: "\x00none"}, VP
	}
	return Actor{ProfileID: profileID, Email: email, Scope: scope, Role: role}
}

// Covers reports whether a selection of a position in subteam is within
// the scope.
func (s Scope) Covers(subteam string) bool { return s.All || s.Subteam == subteam }

// EditsQuestion reports whether the scope may change (or create) a
// question asked for positions of the given subteams. A President's scope
// edits every question; a VP's only a question whose positions are all of
// their subteam. A general question (no positions) is the President's.
func (s Scope) EditsQuestion(subteams []string) bool {
	if s.All {
		return true
	}
	if len(subteams) == 0 || s.Subteam == "" {
		return false
	}
	for _, st := range subteams {
		if st != s.Subteam {
			return false
		}
	}
	return true
}

// Grant is what a position gives its hire at finalization.
type Grant string

// The grants of a position.
const (
	GrantPresident Grant = "president"
	GrantVP        Grant = "vp"
	GrantExec      Grant = "exec"
)

// Grants lists every grant.
func Grants() []Grant { return []Grant{GrantPresident, GrantVP, GrantExec} }

// Valid reports whether g is a known grant.
func (g Grant) Valid() bool { return g == GrantPresident || g == GrantVP || g == GrantExec }

// ExecPosition is the exec role a grant gives (term.ExecPositions).
func (g Grant) ExecPosition() string {
	switch g {
	case GrantPresident:
		return term.PositionPresident
	case GrantVP:
		return term.PositionVP
	}
	return term.PositionExec
}

// MaxPositions is how many positions one application may choose.
const MaxPositions = 3

// CheckAllHandsURL returns why u is not an acceptable all-hands link (an
// https URL with a host), or "".
func CheckAllHandsURL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || p.Scheme != "https" || p.Host == "" || p.User != nil || len(u) > 500 {
		return "must be an https URL"
	}
	return ""
}
