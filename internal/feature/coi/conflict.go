// Package coi holds the conflict-of-interest rule of the club's
// reviews and decisions: nobody acts on their own application, on one
// whose team lists them, or on the application of someone their own
// application of the same edition lists (a team is a team both ways).
// Review submission, hackathon decisions, exec hiring status changes and
// the admin details view apply it through Of; the review queue, the
// review insert and the admin table repeat it in SQL
// (application_conflict, migration 00040, over team_lists_email,
// migration 00008), and a test in package db keeps the two equal.
package coi

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"hackdesk/db"
)

// Kind is the conflict an actor has with an application, if any. Its
// values are application_conflict's.
type Kind string

const (
	None Kind = ""     // no conflict: the actor may act
	Own  Kind = "own"  // the actor's own application
	Team Kind = "team" // an application whose team lists the actor's email
	// Listed is the application of someone the actor's own application
	// of the same edition lists as a teammate.
	Listed Kind = "listed"
)

// Kinds are the conflicts, in the order messages name them.
var Kinds = []Kind{Own, Team, Listed}

// Actor is who wants to act: their account and its email, and the team
// list of their own application in the edition of the application at
// hand ("" when they have none there). A conflict counts within one
// edition, so an Actor is built per edition (ActorIn).
type Actor struct {
	ProfileID uuid.UUID
	Email     string
	Team      string
}

// Application is what the rule reads of an application: its applicant's
// account and email, and its team list (comma-separated emails, as
// stored).
type Application struct {
	ProfileID   uuid.UUID
	Email       string
	TeamMembers string
}

// Of returns the conflict actor has with app: Own when it is the actor's,
// Team when its team lists the actor's email, Listed when the actor's
// own application lists the applicant's email, else None. A superadmin
// is held to it like everyone else.
func Of(actor Actor, app Application) Kind {
	switch {
	case app.ProfileID == actor.ProfileID:
		return Own
	case TeamLists(app.TeamMembers, actor.Email):
		return Team
	case actor.Team != "" && TeamLists(actor.Team, app.Email):
		return Listed
	}
	return None
}

// ActorIn is the actor with the team list of their own application in
// edition hackathonID.
func ActorIn(ctx context.Context, q *db.Queries, profileID uuid.UUID, email string, hackathonID uuid.UUID) (Actor, error) {
	team, err := q.ApplicationTeamIn(ctx, db.ApplicationTeamInParams{ProfileID: profileID, HackathonID: hackathonID})
	if err != nil {
		return Actor{}, err
	}
	return Actor{ProfileID: profileID, Email: email, Team: team}, nil
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
	case Listed:
		return "You cannot " + action + " the application of someone your application lists as a team member"
	}
	return ""
}
