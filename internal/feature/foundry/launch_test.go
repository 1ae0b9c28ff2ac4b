package foundry

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/codehost"
)

func TestLaunchRequestValidate(t *testing.T) {
	t.Parallel()
	ok := `"name":"web","project_type":"nextjs","database":"postgresql","team_slug":"platform"`
	for _, tc := range []struct {
		name string
		body string
		bad  []string // the fields that fail
	}{
		{"OKMinimal", `{` + ok + `}`, nil},
		{"OKEverything", `{` + ok + `,"description":"A site","redis":true,"s3":false,"private":false}`, nil},
		{"OKDescriptionAtLimit", `{` + ok + `,"description":"` + strings.Repeat("é", MaxDescription) + `"}`, nil},
		{"ErrEmpty", `{}`, []string{"name", "project_type", "database", "team_slug"}},
		{"ErrDescriptionTooLong", `{` + ok + `,"description":"` + strings.Repeat("a", MaxDescription+1) + `"}`, []string{"description"}},
		{"ErrUnknownProjectType", `{"name":"web","project_type":"rails","database":"postgresql","team_slug":"platform"}`, []string{"project_type"}},
		{"ErrUnknownDatabase", `{"name":"web","project_type":"express","database":"mysql","team_slug":"platform"}`, []string{"database"}},
		{"ErrNameDots", `{"name":"..","project_type":"express","database":"mongodb","team_slug":"platform"}`, []string{"name"}},
		{"ErrSlugPath", `{"name":"web","project_type":"fastapi","database":"mongodb","team_slug":"a/b"}`, []string{"team_slug"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var req LaunchRequest
			if err := json.Unmarshal([]byte(tc.body), &req); err != nil {
				t.Fatal(err)
			}
			got := req.Validate()
			if len(got) != len(tc.bad) {
				t.Fatalf("Validate() = %v, want failures of %v", got, tc.bad)
			}
			for _, f := range tc.bad {
				if got[f] == "" {
					t.Errorf("Validate() = %v: no reason for %s", got, f)
				}
			}
		})
	}
}

func TestLaunchDefaults(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	for _, tc := range []struct {
		name                   string
		private, redis         *bool
		wantPrivate, wantRedis bool
	}{
		{"Unset", nil, nil, true, false},
		{"Asked", &no, &yes, false, true},
		{"AskedTheDefaults", &yes, &no, true, false},
	} {
		r := LaunchRequest{Private: tc.private, Redis: tc.redis}
		if r.IsPrivate() != tc.wantPrivate || orFalse(r.Redis) != tc.wantRedis {
			t.Errorf("%s: private %v redis %v, want %v %v", tc.name, r.IsPrivate(), orFalse(r.Redis), tc.wantPrivate, tc.wantRedis)
		}
	}
}

func TestCheckTeam(t *testing.T) {
	t.Parallel()
	teams := []codehost.Team{{Slug: "platform"}, {Slug: "web-team"}}
	if err := CheckTeam(teams, "web-team"); err != nil {
		t.Fatalf("listed team: %v", err)
	}
	for _, slug := range []string{"ghosts", "Platform", ""} {
		e, ok := apperr.As(CheckTeam(teams, slug))
		if !ok || e.Code != apperr.Invalid || !strings.Contains(e.Details["team_slug"], "no team "+slug+" in the organization") {
			t.Errorf("CheckTeam(%q) = %v, want a 400 on team_slug", slug, e)
		}
	}
	if CheckTeam(nil, "platform") == nil {
		t.Error("an organization without teams accepted a team")
	}
}

func TestOwnRepository(t *testing.T) {
	t.Parallel()
	launched := time.Date(2026, 3, 1, 12, 0, 0, 700_000_000, time.UTC)
	for _, tc := range []struct {
		name     string
		template string
		created  time.Time
		want     bool
	}{
		{"OKSameSecond", "org/template-nextjs", launched.Truncate(time.Second), true},
		{"OKLater", "org/template-nextjs", launched.Add(time.Minute), true},
		{"ErrOlder", "org/template-nextjs", launched.Add(-time.Second), false},
		{"ErrOtherTemplate", "org/template-express", launched.Add(time.Minute), false},
		{"ErrNoTemplate", "", launched.Add(time.Minute), false},
	} {
		got := OwnRepository(codehost.Repo{Template: tc.template, CreatedAt: tc.created}, "org/template-nextjs", launched)
		if got != tc.want {
			t.Errorf("%s: OwnRepository = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSetupInputs(t *testing.T) {
	t.Parallel()
	got := SetupInputs(DispatchInput{CorrelationID: "c1", ProjectType: "fastapi", Database: "mongodb", Redis: true})
	want := map[string]any{"correlation_id": "c1", "project_type": "fastapi", "database": "mongodb", "redis": "true", "s3": "false"}
	if len(got) != len(want) {
		t.Fatalf("inputs %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("input %s = %v, want %v", k, got[k], v)
		}
	}
}

func TestFailure(t *testing.T) {
	t.Parallel()
	err := error(&Failure{Kind: ErrTeamNotFound, Detail: "team ghosts not found in org"})
	if !errors.Is(err, ErrTeamNotFound) || errors.Is(err, ErrNameTaken) || err.Error() != "team ghosts not found in org" {
		t.Fatalf("Failure %v: kind or detail lost", err)
	}
}
