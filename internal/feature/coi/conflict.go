// Package coi holds the conflict-of-interest rule of the club's
// reviews and decisions: nobody acts on their own application, nor on one
// whose team lists them. Review submission, hackathon decisions and exec
// hiring status changes all apply it through Of; the review queue and the
// review insert repeat TeamLists in SQL (team_lists_email, migration
// 00008), and a test in package db keeps the two equal.
package coi

import (
	"strings"

	"github.com/google/uuid"
)

// Kind is the conflict an actor has with an application, if any.
type Kind string

const (
	None Kind = ""     // no conflict: the actor may act
	Own  Kind = "own"  // the actor's own application
	Team Kind = "team" // an application whose team lists the actor's email
)

// Actor is who wants to act: their account and its email.
type Actor struct {
	ProfileID uuid.UUID
	Email     string
}

// Application is what the rule reads of an application: its applicant and
// its team list (comma-separated emails, as stored).
type Application struct {
	ProfileID   uuid.UUID
	TeamMembers string
}

// Of returns the conflict actor has with app: Own when it is the actor's,
// Team when its team lists the actor's email, else None. A superadmin is
// held to it like everyone else.
func Of(actor Actor, app Application) Kind {
	switch {
	case app.ProfileID == actor.ProfileID:
		return Own
	case TeamLists(app.TeamMembers, actor.Email):
		return Team
	}
	return None
}

// TeamLists reports whether a team list (comma-separated emails) names
// email: compared case-insensitively as whole addresses, spaces ignored, so
// a@x.org is on "B@x.org, A@X.org" but not on "ba@x.org" or "a@x.org.uk".
// An empty email is on no team.
func TeamLists(teamMembers, email string) bool {
	if email == "" {
		return false
	}
	list := "," + strings.ReplaceAll(strings.ToLower(teamMembers), " ", "") + ","
	return strings.Contains(list, ","+strings.ToLower(email)+",")
}

// Message says, for an action ("review", "decide on", "change the status
// of"), why the actor may not take it: it names the conflict. It is ""
// for None.
func (k Kind) Message(action string) string {
	switch k {
	case Own:
		return "You cannot " + action + " your own application"
	case Team:
		return "You cannot " + action + " an application that lists you as a team member"
	}
	return ""
}
