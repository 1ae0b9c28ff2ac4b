package application

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// patchOf decodes a PATCH body as the API does (without its strictness).
func patchOf(t *testing.T, body string) *Patch {
	t.Helper()
	var p Patch
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return &p
}

func TestPatchValidate(t *testing.T) {
	t.Parallel()
	long := "https://example.com/" + strings.Repeat("x", MaxURL)
	for _, c := range []struct {
		name, body string
		want       apperr.Fields
	}{
		{"Empty", `{}`, apperr.Fields{}},
		{"NullsAndBlanksClear", `{"phone":null,"discord":"  ","age":null,"github_url":""}`, apperr.Fields{}},
		{"Good", `{"email":"ada@example.com","phone":"+1 (613) 555-0100","discord":"ada.l#1234","tshirt_size":"XL",
			"age":13,"hackathons_attended":1000,"github_url":"HTTPS://github.com/ada","website_url":"http://ada.dev/?q#x",
			"team_members":["b@example.com","c@example.com"],"answers":{}}`, apperr.Fields{}},
		{"Email", `{"email":"Ada <ada@example.com>"}`, apperr.Fields{"email": "must be an email address"}},
		{"Phone", `{"phone":"call me"}`, apperr.Fields{"phone": "must be a phone number"}},
		{"ShortPhone", `{"phone":"12345"}`, apperr.Fields{"phone": "must be a phone number"}},
		{"Discord", `{"discord":"a"}`, apperr.Fields{"discord": "must be a Discord username"}},
		{"Tshirt", `{"tshirt_size":"m"}`, apperr.Fields{"tshirt_size": "must be one of XS, S, M, L, XL, XXL"}},
		{"Age", `{"age":12}`, apperr.Fields{"age": "must be from 13 to 100"}},
		{"Hackathons", `{"hackathons_attended":-1}`, apperr.Fields{"hackathons_attended": "must be from 0 to 1000"}},
		{"Country", `{"country":"` + strings.Repeat("é", 101) + `"}`, apperr.Fields{"country": "must be at most 100 characters"}},
		{"URLScheme", `{"linkedin_url":"ftp://linkedin.com/in/ada"}`, apperr.Fields{"linkedin_url": "must be an http(s) URL"}},
		{"URLUserInfo", `{"github_url":"https://evil@github.com"}`, apperr.Fields{"github_url": "must be an http(s) URL"}},
		{"URLNoDot", `{"website_url":"http://localhost/x"}`, apperr.Fields{"website_url": "must be an http(s) URL"}},
		{"URLTooLong", `{"website_url":"` + long + `"}`, apperr.Fields{"website_url": "must be at most 300 characters"}},
		{"Q2", `{"q2_answer":"` + strings.Repeat("x", 1001) + `"}`, apperr.Fields{"q2_answer": "must be at most 1000 characters"}},
		{"TeamTooBig", `{"team_members":"a@x.org,b@x.org,c@x.org,d@x.org"}`, apperr.Fields{"team_members": "at most 3 team members"}},
		{"TeamBadEmail", `{"team_members":"a@x.org,nope"}`, apperr.Fields{"team_members": "nope must be an email address"}},
		{"TeamTwice", `{"team_members":"a@x.org, A@X.org"}`, apperr.Fields{"team_members": "A@X.org is listed twice"}},
		{"Positions", `{"position_ids":["x"]}`, apperr.Fields{"position_ids": "x is not a UUID"}},
		{"AnswersNull", `{"answers":null}`, apperr.Fields{"answers": "must be an object of question ids to answers"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := patchOf(t, c.body).Validate(); !maps.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestPatchValidateParsesPositions(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	p := patchOf(t, `{"position_ids":["`+id.String()+`"]}`)
	if f := p.Validate(); len(f) != 0 {
		t.Fatal(f)
	}
	if len(p.positionIDs) != 1 || p.positionIDs[0] != id {
		t.Fatalf("positions %v, want [%s]", p.positionIDs, id)
	}
}

func TestPatchApply(t *testing.T) {
	t.Parallel()
	a := db.Application{Phone: ptr("+1 613 555 0100"), Discord: ptr("ada"), Age: ptr(int32(20)),
		TeamMembers: "b@x.org", CocAgreed: true, MarketingOptIn: true}
	patchOf(t, `{"phone":null,"discord":"  ","country":"  Canada ","age":21,"team_members":null,
		"gender":["woman"," non-binary "],"coc_agreed":null,"info_share_authorized":true}`).Apply(&a)
	switch {
	case a.Phone != nil || a.Discord != nil:
		t.Fatalf("null and blank should clear: phone %v, discord %v", a.Phone, a.Discord)
	case a.Country == nil || *a.Country != "Canada":
		t.Fatalf("country %v, want trimmed", a.Country)
	case a.Age == nil || *a.Age != 21:
		t.Fatalf("age %v", a.Age)
	case a.Gender == nil || *a.Gender != "woman,non-binary":
		t.Fatalf("gender %v", a.Gender)
	case a.TeamMembers != "":
		t.Fatalf("team %q, want cleared", a.TeamMembers)
	case a.CocAgreed || !a.InfoShareAuthorized || !a.MarketingOptIn:
		t.Fatalf("flags coc %v info %v marketing %v", a.CocAgreed, a.InfoShareAuthorized, a.MarketingOptIn)
	}
}

func TestPatchTeamSearched(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]bool{`{}`: false, `{"team_members":null}`: false, `{"team_members":""}`: false,
		`{"team_members":"a@x.org"}`: true} {
		if got := patchOf(t, body).TeamSearched(); got != want {
			t.Errorf("%s: got %v, want %v", body, got, want)
		}
	}
}
