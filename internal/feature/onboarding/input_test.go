package onboarding

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// TestFormInput: the text fields are required, a null consent is refused,
// and the headshot fields change the stored ones only when sent.
func TestFormInput(t *testing.T) {
	t.Parallel()
	const full = `"display_name":"Ada","email":"ada@example.com","role":"Dev","term_type":"Coop","ds_competency":"none"`
	for _, c := range []struct {
		body    string
		failing []string
		want    Answers
	}{
		{`{}`, []string{"display_name", "ds_competency", "email", "role", "term_type"}, Answers{}},
		{`{` + full + `,"headshot_consent":null}`, []string{"headshot_consent"}, Answers{}},
		{`{` + full + `}`, nil, Answers{DisplayName: "Ada", Email: "ada@example.com", Role: "Dev", TermType: "Coop",
			DsCompetency: "none"}},
		{`{` + full + `,"chat_handle":"ada#1","headshot_key":null,"headshot_consent":true}`, nil, Answers{DisplayName: "Ada",
			Email: "ada@example.com", Role: "Dev", TermType: "Coop", DsCompetency: "none", ChatHandle: "ada#1",
			SetHeadshotKey: true, SetHeadshotConsent: true, HeadshotConsent: true}},
	} {
		var in FormInput
		if err := json.Unmarshal([]byte(c.body), &in); err != nil {
			t.Fatalf("%s: %v", c.body, err)
		}
		if got := slices.Sorted(maps.Keys(in.Validate())); !slices.Equal(got, c.failing) {
			t.Errorf("%s: failing %v, want %v", c.body, got, c.failing)
		}
		if c.failing == nil && in.Answers() != c.want {
			t.Errorf("%s: answers %+v, want %+v", c.body, in.Answers(), c.want)
		}
	}
	var in FormInput
	if err := json.Unmarshal([]byte(`{"headshot_key":"k"}`), &in); err != nil {
		t.Fatal(err)
	}
	if a := in.Answers(); !a.SetHeadshotKey || a.HeadshotKey == nil || *a.HeadshotKey != "k" {
		t.Errorf("headshot_key k: %+v", a)
	}
}
