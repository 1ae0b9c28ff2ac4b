package coi

import (
	"testing"

	"github.com/google/uuid"
)

func TestOf(t *testing.T) {
	t.Parallel()
	me, other := uuid.New(), uuid.New()
	actor := Actor{ProfileID: me, Email: "Grace.Hopper@Example.com"}
	// The actor whose own application (of the same edition) lists friends.
	listing := actor
	listing.Team = "Pat@Example.com , sam@example.com"
	for _, c := range []struct {
		name  string
		actor Actor
		app   Application
		want  Kind
	}{
		{"Own", actor, Application{ProfileID: me}, Own},
		{"OwnAndOnTeam", actor, Application{ProfileID: me, TeamMembers: "grace.hopper@example.com"}, Own},
		{"OwnListingThemselves", listing, Application{ProfileID: me, Email: "pat@example.com"}, Own},
		{"Team", actor, Application{ProfileID: other, TeamMembers: "friend@example.com,grace.hopper@example.COM"}, Team},
		{"TeamSpacesAndCase", actor, Application{ProfileID: other, TeamMembers: "friend@example.com , GRACE.HOPPER@EXAMPLE.COM "}, Team},
		{"TeamOnly", actor, Application{ProfileID: other, TeamMembers: "grace.hopper@example.com"}, Team},
		{"TeamBothWays", listing, Application{ProfileID: other, Email: "pat@example.com", TeamMembers: "grace.hopper@example.com"}, Team},
		{"Listed", listing, Application{ProfileID: other, Email: "pat@example.com"}, Listed},
		{"ListedOtherCase", listing, Application{ProfileID: other, Email: "SAM@example.com", TeamMembers: "x@example.com"}, Listed},
		{"NoneListedLonger", listing, Application{ProfileID: other, Email: "pat@example.com.au"}, None},
		{"NoneListedPart", listing, Application{ProfileID: other, Email: "at@example.com"}, None},
		{"NoneNoApplicationOfTheirs", actor, Application{ProfileID: other, Email: "pat@example.com"}, None},
		{"NoneEmptyApplicantEmail", listing, Application{ProfileID: other}, None},
		{"NoneLongerEmail", actor, Application{ProfileID: other, TeamMembers: "xgrace.hopper@example.com"}, None},
		{"NoneLongerDomain", actor, Application{ProfileID: other, TeamMembers: "grace.hopper@example.com.au,friend@example.com"}, None},
		{"NoneEmptyTeam", actor, Application{ProfileID: other}, None},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Of(c.actor, c.app); got != c.want {
				t.Errorf("Of = %q, want %q", got, c.want)
			}
		})
	}
	if TeamLists("a@x.org", "") || TeamLists("", "") {
		t.Error("an empty email is on a team")
	}
}

func TestMessage(t *testing.T) {
	t.Parallel()
	for k, want := range map[Kind]string{
		Own:    "You cannot review your own application",
		Team:   "You cannot review an application that lists you as a team member",
		Listed: "You cannot review the application of someone your application lists as a team member",
		None:   "",
	} {
		if got := k.Message("review"); got != want {
			t.Errorf("%q.Message = %q, want %q", k, got, want)
		}
	}
}
