package coi

import (
	"testing"

	"github.com/google/uuid"
)

func TestOf(t *testing.T) {
	t.Parallel()
	me, other := uuid.New(), uuid.New()
	actor := Actor{ProfileID: me, Email: "Grace.Hopper@Example.com"}
	for _, c := range []struct {
		name string
		app  Application
		want Kind
	}{
		{"Own", Application{ProfileID: me}, Own},
		{"OwnAndOnTeam", Application{ProfileID: me, TeamMembers: "grace.hopper@example.com"}, Own},
		{"Team", Application{ProfileID: other, TeamMembers: "friend@example.com,grace.hopper@example.COM"}, Team},
		{"TeamSpacesAndCase", Application{ProfileID: other, TeamMembers: "friend@example.com , GRACE.HOPPER@EXAMPLE.COM "}, Team},
		{"TeamOnly", Application{ProfileID: other, TeamMembers: "grace.hopper@example.com"}, Team},
		{"NoneLongerEmail", Application{ProfileID: other, TeamMembers: "xgrace.hopper@example.com"}, None},
		{"NoneLongerDomain", Application{ProfileID: other, TeamMembers: "grace.hopper@example.com.au,friend@example.com"}, None},
		{"NoneEmptyTeam", Application{ProfileID: other}, None},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Of(actor, c.app); got != c.want {
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
		Own:  "You cannot review your own application",
		Team: "You cannot review an application that lists you as a team member",
		None: "",
	} {
		if got := k.Message("review"); got != want {
			t.Errorf("%q.Message = %q, want %q", k, got, want)
		}
	}
}
