package hiring

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"hackdesk/internal/platform/apperr"
)

// failing decodes body into v, runs validate and answers the failing
// fields with their reasons.
func failing[T any](t *testing.T, body string, v *T, validate func(*T) apperr.Fields) apperr.Fields {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return validate(v)
}

func keys(m apperr.Fields) []string { return slices.Sorted(maps.Keys(m)) }

func TestPositionInputValidate(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 201)
	for _, c := range []struct {
		create bool
		body   string
		want   []string
	}{
		{true, `{"title":"VP Tech","subteam":"Tech","grants":"vp"}`, nil},
		{true, `{"title":"VP Tech","subteam":"Tech","grants":"vp","term_id":"` + uuid.NewString() + `"}`, nil},
		{true, `{}`, []string{"grants", "subteam", "title"}},
		{true, `{"title":null,"subteam":"Tech","grants":"vp"}`, []string{"title"}},
		{true, `{"title":"  ","subteam":"Tech","grants":"vp"}`, []string{"title"}},
		{true, `{"title":"` + long + `","subteam":"Tech","grants":"admin"}`, []string{"grants", "title"}},
		{true, `{"title":"a","subteam":"Tech","grants":"exec","term_id":"x"}`, []string{"term_id"}},
		{true, `{"title":"a","subteam":"Tech","grants":"exec","open":null}`, []string{"open"}},
		{true, `{"title":"a","subteam":"Tech","grants":"exec","description":"` + strings.Repeat("d", 5001) + `"}`, []string{"description"}},
		{false, `{}`, nil},
		{false, `{"open":false,"description":null}`, nil},
		{false, `{"term_id":"` + uuid.NewString() + `"}`, []string{"term_id"}},
		{false, `{"subteam":null}`, []string{"subteam"}},
	} {
		in := PositionInput{Create: c.create}
		got := failing(t, c.body, &in, (*PositionInput).Validate)
		if !slices.Equal(keys(got), c.want) {
			t.Errorf("create=%v %s: failing %v, want %v", c.create, c.body, got, c.want)
		}
	}
	in := PositionInput{Create: true}
	if got := failing(t, `{"title":"a","subteam":"b","grants":"boss"}`, &in, (*PositionInput).Validate); got["grants"] != "must be one of president, vp, exec" {
		t.Errorf("grants reason %q", got["grants"])
	}
}

func TestQuestionInputValidate(t *testing.T) {
	t.Parallel()
	p1, p2 := uuid.NewString(), uuid.NewString()
	for _, c := range []struct {
		create bool
		body   string
		want   []string
		ids    int
	}{
		{true, `{"prompt":"Why us?","type":"text"}`, nil, 0},
		{true, `{"prompt":"Why us?","type":"textarea","char_limit":500,"position_ids":["` + p1 + `","` + p2 + `"]}`, nil, 2},
		{true, `{}`, []string{"prompt", "type"}, 0},
		{true, `{"prompt":" ","type":"radio"}`, []string{"prompt", "type"}, 0},
		{true, `{"prompt":"` + strings.Repeat("é", 1001) + `","type":"text"}`, []string{"prompt"}, 0},
		{true, `{"prompt":"a","type":"text","char_limit":0}`, []string{"char_limit"}, 0},
		{true, `{"prompt":"a","type":"text","char_limit":10001}`, []string{"char_limit"}, 0},
		{true, `{"prompt":"a","type":"text","char_limit":null,"placeholder":null,"help_text":null}`, nil, 0},
		{true, `{"prompt":"a","type":"text","placeholder":"` + strings.Repeat("p", 501) + `"}`, []string{"placeholder"}, 0},
		{true, `{"prompt":"a","type":"text","help_text":"` + strings.Repeat("h", 2001) + `"}`, []string{"help_text"}, 0},
		{true, `{"prompt":"a","type":"text","required":null}`, []string{"required"}, 0},
		{true, `{"prompt":"a","type":"text","position_ids":["` + p1 + `","` + p1 + `"]}`, []string{"position_ids"}, 0},
		{true, `{"prompt":"a","type":"text","position_ids":["nope"]}`, []string{"position_ids"}, 0},
		{false, `{}`, nil, 0},
		{false, `{"prompt":null}`, []string{"prompt"}, 0},
		{false, `{"position_ids":[]}`, nil, 0},
	} {
		in := QuestionInput{Create: c.create}
		got := failing(t, c.body, &in, (*QuestionInput).Validate)
		if !slices.Equal(keys(got), c.want) {
			t.Errorf("create=%v %s: failing %v, want %v", c.create, c.body, got, c.want)
		}
		if len(c.want) == 0 && len(in.positions()) != c.ids {
			t.Errorf("%s: %d positions parsed, want %d", c.body, len(in.positions()), c.ids)
		}
	}
}

func TestParsePositionIDs(t *testing.T) {
	t.Parallel()
	a, b := uuid.NewString(), uuid.NewString()
	for _, c := range []struct {
		raw  []string
		why  string
		want int
	}{
		{nil, "", 0},
		{[]string{a, b}, "", 2},
		{[]string{a, b, a}, "at most 2 positions", 0},
		{[]string{a, a}, a + " is listed twice", 0},
		{[]string{a, strings.ToUpper(a)}, strings.ToUpper(a) + " is listed twice", 0},
		{[]string{"x"}, "x is not a UUID", 0},
	} {
		ids, why := ParsePositionIDs(c.raw, 2)
		if why != c.why || len(ids) != c.want {
			t.Errorf("%v: %d ids, %q; want %d, %q", c.raw, len(ids), why, c.want, c.why)
		}
	}
}

func TestReviewFilterValidate(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	id := uuid.New()
	for _, c := range []struct {
		name   string
		f      ReviewFilter
		want   []string
		q      *string
		withID bool
	}{
		{"none", ReviewFilter{}, nil, nil, false},
		{"all", ReviewFilter{Status: s("wanted"), PositionID: s(id.String()), Q: s("  ada ")}, nil, s("ada"), true},
		{"blank q", ReviewFilter{Q: s("   ")}, nil, nil, false},
		{"bad", ReviewFilter{Status: s("hired"), PositionID: s("x"), Q: s(strings.Repeat("q", 201))}, []string{"position_id", "q", "status"}, nil, false},
	} {
		got := c.f.Validate()
		if !slices.Equal(keys(got), c.want) {
			t.Errorf("%s: failing %v, want %v", c.name, got, c.want)
			continue
		}
		if c.want != nil {
			continue
		}
		if (c.q == nil) != (c.f.q == nil) || (c.q != nil && *c.q != *c.f.q) {
			t.Errorf("%s: q %v, want %v", c.name, c.f.q, c.q)
		}
		if c.withID != (c.f.positionID != nil && *c.f.positionID == id) {
			t.Errorf("%s: position %v", c.name, c.f.positionID)
		}
	}
}

func TestStatusAndFinalizeInputs(t *testing.T) {
	t.Parallel()
	for _, s := range Statuses() {
		if got := (&StatusInput{Status: s}).Validate(); len(got) != 0 {
			t.Errorf("%s refused: %v", s, got)
		}
	}
	if got := (&StatusInput{Status: "hired"}).Validate(); !strings.HasPrefix(got["status"], "must be one of in_review, ") {
		t.Errorf("hired: %v", got)
	}
	for _, c := range []struct {
		in   FinalizeInput
		want []string
	}{
		{FinalizeInput{TermID: uuid.NewString(), AllHandsURL: "https://cal.example.com/x"}, nil},
		{FinalizeInput{TermID: "t", AllHandsURL: "http://cal.example.com/x"}, []string{"all_hands_url", "term_id"}},
		{FinalizeInput{TermID: uuid.NewString()}, []string{"all_hands_url"}},
	} {
		if got := c.in.Validate(); !slices.Equal(keys(got), c.want) {
			t.Errorf("%+v: failing %v, want %v", c.in, got, c.want)
		}
	}
}

func TestAnswerTooLong(t *testing.T) {
	t.Parallel()
	five := int32(5)
	for _, c := range []struct {
		text  string
		limit *int32
		why   string
	}{
		{"hello", &five, ""},
		{"héllo", &five, ""}, // runes, not bytes
		{"hello!", &five, "must be at most 5 characters"},
		{strings.Repeat("a", MaxAnswerChars), nil, ""},
		{strings.Repeat("a", MaxAnswerChars+1), nil, "must be at most 10000 characters"},
	} {
		if got := answerTooLong(c.text, c.limit); got != c.why {
			t.Errorf("%d chars: %q, want %q", len(c.text), got, c.why)
		}
	}
}

func TestNewActor(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	for _, c := range []struct {
		super        bool
		pos, subteam string
		role         Role
		all          bool
		covers       string
	}{
		{true, "", "", President, true, "Tech"},
		{false, "President", "", President, true, "Tech"},
		{false, "VP", "Design", VP, false, "Design"},
		{false, "Exec", "Design", VP, false, ""}, // no scope: covers nothing
	} {
		a := NewActor(id, "a@x.org", c.super, c.pos, c.subteam)
		if a.ProfileID != id || a.Email != "a@x.org" || a.Role != c.role || a.Scope.All != c.all {
			t.Errorf("%+v: %+v", c, a)
		}
		for _, st := range []string{"Tech", "Design", ""} {
			want := c.all || st == c.covers && c.covers != ""
			if a.Scope.Covers(st) != want {
				t.Errorf("%+v covers %q: %v", c, st, !want)
			}
		}
		if !c.all && c.covers == "" && a.Scope.EditsQuestion([]string{"Design"}) {
			t.Errorf("%+v: a caller without scope edits a question", c)
		}
	}
}

// AllowedStatuses is CanMove read the other way round: every status a
// caller may move a selection to from where it is, never the one it holds.
func TestAllowedStatuses(t *testing.T) {
	t.Parallel()
	review := []Status{InReview, Interviewing, Wanted, NotWanted}
	for _, c := range []struct {
		role Role
		from Status
		want []Status
	}{
		{VP, InReview, []Status{Interviewing, Wanted, NotWanted}},
		{VP, Wanted, []Status{InReview, Interviewing, NotWanted}},
		{VP, OfferSent, []Status{}},
		{VP, RejectionSent, []Status{}},
		{President, InReview, []Status{Interviewing, Wanted, NotWanted, RejectionSent}},
		{President, Wanted, []Status{InReview, Interviewing, NotWanted, OfferSent, RejectionSent}},
		{President, OfferSent, []Status{AcceptedOffer, DeclinedOffer}},
		{President, AcceptedOffer, []Status{}},
		{President, DeclinedOffer, []Status{}},
		{President, RejectionSent, []Status{}},
		{President, Status("hired"), []Status{}},
	} {
		got := AllowedStatuses(c.role, c.from)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s from %s: %v, want %v", c.role, c.from, got, c.want)
		}
		// Every status offered is one CanMove allows, and every other is not.
		for _, to := range Statuses() {
			if ok := CanMove(c.role, c.from, to) == nil && to != c.from; ok != slices.Contains(got, to) {
				t.Errorf("%s from %s to %s: offered %v, CanMove %v", c.role, c.from, to, !ok, ok)
			}
		}
		if c.role == VP {
			for _, s := range got {
				if !slices.Contains(review, s) {
					t.Errorf("VP offered %s", s)
				}
			}
		}
	}
}
