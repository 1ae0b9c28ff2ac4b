package hiring

import (
	"errors"
	"testing"
)

// TestCanMoveEveryPair checks every (role, from, to) against the rules
// written out as a table of allowed moves.
func TestCanMoveEveryPair(t *testing.T) {
	t.Parallel()
	allowed := map[Status][]Status{
		InReview:      {Interviewing, Wanted, NotWanted, RejectionSent},
		Interviewing:  {InReview, Wanted, NotWanted, RejectionSent},
		Wanted:        {InReview, Interviewing, NotWanted, OfferSent, RejectionSent},
		NotWanted:     {InReview, Interviewing, Wanted, RejectionSent},
		OfferSent:     {AcceptedOffer, DeclinedOffer},
		AcceptedOffer: {},
		DeclinedOffer: {},
		RejectionSent: {},
	}
	vpMay := map[Status]bool{InReview: true, Interviewing: true, Wanted: true, NotWanted: true}
	n := 0
	for _, role := range []Role{VP, President} {
		for _, from := range Statuses() {
			for _, to := range Statuses() {
				n++
				err := CanMove(role, from, to)
				ok := from == to
				for _, s := range allowed[from] {
					ok = ok || s == to
				}
				var want string
				switch {
				case role == VP && !vpMay[to]:
					want = "role"
				case !ok:
					want = "move"
				}
				var me *MoveError
				switch want {
				case "":
					if err != nil {
						t.Errorf("%s %s→%s: %v, want allowed", role, from, to, err)
					}
				case "role":
					if !errors.Is(err, ErrRole) {
						t.Errorf("%s %s→%s: %v, want ErrRole", role, from, to, err)
					}
				case "move":
					if !errors.As(err, &me) || me.From != from || me.To != to {
						t.Errorf("%s %s→%s: %v, want a MoveError", role, from, to, err)
					} else if got, w := err.Error(), "cannot move from "+string(from)+" to "+string(to); got != w {
						t.Errorf("message %q, want %q", got, w)
					}
				}
			}
		}
	}
	if n != 2*8*8 {
		t.Fatalf("checked %d pairs", n)
	}
	if err := CanMove(President, "bogus", InReview); err == nil {
		t.Error("an unknown status moved")
	}
}

func TestFinalStatusesHaveNoWayOut(t *testing.T) {
	t.Parallel()
	// Nothing moves a selection out of these (CanMove).
	for _, from := range []Status{AcceptedOffer, DeclinedOffer, RejectionSent} {
		for _, to := range Statuses() {
			if to != from && CanMove(President, from, to) == nil {
				t.Errorf("final %s moved to %s", from, to)
			}
		}
	}
}

func TestScope(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		super         bool
		pos, subteam  string
		ok, all       bool
		role          Role
		covers, other bool
	}{
		{true, "", "", true, true, President, true, true},
		{false, "President", "Ops", true, true, President, true, true},
		{false, "VP", "Design", true, false, VP, true, false},
		{false, "VP", "", false, false, "", false, false},
		{false, "Exec", "Design", false, false, "", false, false},
		{false, "", "", false, false, "", false, false},
	} {
		s, role, ok := ScopeOf(c.super, c.pos, c.subteam)
		if ok != c.ok || s.All != c.all || role != c.role {
			t.Errorf("%+v: got %+v %s %v", c, s, role, ok)
			continue
		}
		if ok && (s.Covers("Design") != c.covers || s.Covers("Tech") != c.other) {
			t.Errorf("%+v: covers wrong", c)
		}
	}
}

func TestGrantsAndURL(t *testing.T) {
	t.Parallel()
	for g, want := range map[Grant]string{GrantPresident: "President", GrantVP: "VP", GrantExec: "Exec"} {
		if !g.Valid() || g.ExecPosition() != want {
			t.Errorf("%s", g)
		}
	}
	if Grant("admin").Valid() {
		t.Error("admin is not a grant")
	}
	for u, ok := range map[string]bool{
		"https://cal.example.com/allhands": true, "http://cal.example.com": false,
		"https://": false, "not a url": false, "https://u:p@x.org": false, "javascript:alert(1)": false,
	} {
		if (CheckAllHandsURL(u) == "") != ok {
			t.Errorf("%q: ok=%v", u, !ok)
		}
	}
}

func TestEditsQuestion(t *testing.T) {
	t.Parallel()
	pres := Scope{All: true}
	design := Scope{Subteam: "Design"}
	none := Scope{}
	cases := []struct {
		name     string
		scope    Scope
		subteams []string
		want     bool
	}{
		{"president general", pres, nil, true},
		{"president any subteam", pres, []string{"Tech", "Design"}, true},
		{"vp general", design, nil, false},
		{"vp general empty", design, []string{}, false},
		{"vp own", design, []string{"Design"}, true},
		{"vp own twice", design, []string{"Design", "Design"}, true},
		{"vp other", design, []string{"Tech"}, false},
		{"vp mixed", design, []string{"Design", "Tech"}, false},
		{"no scope", none, []string{""}, false},
		{"no scope general", none, nil, false},
	}
	for _, c := range cases {
		if got := c.scope.EditsQuestion(c.subteams); got != c.want {
			t.Errorf("%s: EditsQuestion(%v) = %v, want %v", c.name, c.subteams, got, c.want)
		}
	}
}
