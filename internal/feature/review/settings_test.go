package review

import (
	"encoding/json"
	"reflect"
	"testing"

	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/hiring"
)

func TestSettingsAdmits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cap     *int32
		reviews int32
		want    bool
	}{
		{nil, 0, true},
		{nil, 1000, true},
		{ptr[int32](1), 0, true},
		{ptr[int32](1), 1, false},
		{ptr[int32](2), 1, true},
		{ptr[int32](2), 2, false},
		{ptr[int32](2), 3, false},
	}
	for _, c := range cases {
		if got := (Settings{Cap: c.cap}).Admits(c.reviews); got != c.want {
			t.Errorf("cap %v, %d reviews: admits %v, want %v", c.cap, c.reviews, got, c.want)
		}
	}
}

// settingsPatch decodes a PATCH body as the API does.
func settingsPatch(t *testing.T, body string) SettingsPatch {
	t.Helper()
	var p SettingsPatch
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return p
}

func TestSettingsPatch(t *testing.T) {
	t.Parallel()
	start := Settings{Blind: false, Cap: ptr[int32](3)}
	cases := []struct {
		body   string
		want   Settings
		fields map[string]string
	}{
		{`{}`, start, nil},
		{`{"blind": true}`, Settings{Blind: true, Cap: ptr[int32](3)}, nil},
		{`{"cap": 1}`, Settings{Cap: ptr[int32](1)}, nil},
		{`{"cap": null}`, Settings{}, nil},
		{`{"blind": true, "cap": 5}`, Settings{Blind: true, Cap: ptr[int32](5)}, nil},
		{`{"cap": 0}`, start, map[string]string{"cap": "must be null or at least 1"}},
		{`{"cap": -2}`, start, map[string]string{"cap": "must be null or at least 1"}},
		{`{"blind": null}`, start, map[string]string{"blind": "cannot be null"}},
	}
	for _, c := range cases {
		p := settingsPatch(t, c.body)
		f := p.Validate()
		if len(f) != len(c.fields) {
			t.Errorf("%s: fields %v, want %v", c.body, f, c.fields)
		}
		for k, v := range c.fields {
			if f[k] != v {
				t.Errorf("%s: %s = %q, want %q", c.body, k, f[k], v)
			}
		}
		if len(f) != 0 {
			continue
		}
		if got := start.Apply(p); !got.equal(c.want) {
			t.Errorf("%s: settings %+v cap %v, want %+v cap %v", c.body, got, got.Cap, c.want, c.want.Cap)
		}
	}
	// Apply never writes through the settings it was given.
	s := Settings{Cap: ptr[int32](2)}
	s.Apply(settingsPatch(t, `{"cap": 9}`))
	if *s.Cap != 2 {
		t.Fatalf("Apply changed its receiver's cap to %d", *s.Cap)
	}
}

func TestRedacted(t *testing.T) {
	t.Parallel()
	full := Application{
		View: application.View{
			Email: ptr("ada@example.com"), Phone: ptr("+1 613 555 0100"), Discord: ptr("ada#1"), Age: ptr[int32](20),
			Country: ptr("Canada"), Gender: ptr("woman"), Ethnicity: ptr("x"), University: ptr("uOttawa"),
			TeamMembers: "bo@example.com", Program: ptr("CS"), YearOfStudy: ptr("2nd"), ExperienceLevel: ptr("Beginner"),
			HackathonsAttended: ptr[int32](3), GithubURL: ptr("https://github.com/ada"),
			LinkedinURL: ptr("https://linkedin.com/in/ada"), WebsiteURL: ptr("https://ada.dev"),
			ResumeKey: ptr("p/cv.pdf"), Q1Answer: ptr("one"), Q2Answer: ptr("two"), Answers: map[string]string{"q": "a"},
		},
		Name:      ptr("Ada Lovelace"),
		ResumeURL: ptr("https://s3/cv"), ResumePreviewURL: ptr("https://s3/cv?inline"),
		TeamMembersWithNames: []application.TeamMember{{Email: "bo@example.com", DisplayName: ptr("Bo")}},
		QuestionAnswers:      []hiring.AnswerView{{QuestionID: "q", Prompt: "Why?", Answer: "a"}},
	}
	r := full.Redacted()
	left := []struct {
		name string
		gone bool
	}{
		{"email", r.Email == nil},
		{"phone", r.Phone == nil},
		{"discord", r.Discord == nil},
		{"age", r.Age == nil},
		{"country", r.Country == nil},
		{"gender", r.Gender == nil},
		{"ethnicity", r.Ethnicity == nil},
		{"university", r.University == nil},
		{"name", r.Name == nil},
		{"program", r.Program == nil},
		{"year_of_study", r.YearOfStudy == nil},
		{"experience_level", r.ExperienceLevel == nil},
		{"hackathons_attended", r.HackathonsAttended == nil},
		{"team_members", r.TeamMembers == ""},
		{"team_members_with_names", r.TeamMembersWithNames != nil && len(r.TeamMembersWithNames) == 0},
	}
	for _, c := range left {
		if !c.gone {
			t.Errorf("%s is still shown", c.name)
		}
	}
	kept := []struct {
		name      string
		got, want any
	}{
		{"resume_url", r.ResumeURL, full.ResumeURL},
		{"resume_preview_url", r.ResumePreviewURL, full.ResumePreviewURL},
		{"resume_key", r.ResumeKey, full.ResumeKey},
		{"github_url", r.GithubURL, full.GithubURL},
		{"linkedin_url", r.LinkedinURL, full.LinkedinURL},
		{"website_url", r.WebsiteURL, full.WebsiteURL},
		{"q1_answer", r.Q1Answer, full.Q1Answer},
		{"q2_answer", r.Q2Answer, full.Q2Answer},
		{"answers", r.Answers, full.Answers},
		{"question_answers", r.QuestionAnswers, full.QuestionAnswers},
	}
	for _, c := range kept {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: %v, want %v kept", c.name, c.got, c.want)
		}
	}
	if full.Email == nil || full.Program == nil || len(full.TeamMembersWithNames) != 1 {
		t.Fatal("Redacted changed the view it was given")
	}
}
