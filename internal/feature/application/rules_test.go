package application

import (
	"maps"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/coi"
	"hackdesk/internal/platform/apperr"
)

func ptr[T any](v T) *T { return &v }

// complete is an application that holds everything submission needs.
func complete() db.Application {
	return db.Application{
		Email: ptr("ada@example.com"), Phone: ptr("+1 613 555 0100"), Discord: ptr("ada"), TshirtSize: ptr("M"),
		Age: ptr(int32(20)), Country: ptr("Canada"), University: ptr("uOttawa"), Program: ptr("CS"),
		YearOfStudy: ptr("2"), ExperienceLevel: ptr("beginner"), HackathonsAttended: ptr(int32(0)),
		ResumeKey: ptr("p/cv.pdf"), Q1Answer: ptr("q1"), Q2Answer: ptr("q2"), CocAgreed: true, InfoShareAuthorized: true,
	}
}

// wantErr checks err against an apperr code and details (nil for none);
// code "" wants no error.
func wantErr(t *testing.T, err error, code apperr.Code, details map[string]string) {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatalf("got %v, want no error", err)
		}
		return
	}
	e, ok := apperr.As(err)
	if !ok || e.Code != code {
		t.Fatalf("got %v, want a %s error", err, code)
	}
	if details != nil && !maps.Equal(e.Details, details) {
		t.Fatalf("details %v, want %v", e.Details, details)
	}
}

func TestRequiredForSubmit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		change func(*db.Application)
		want   apperr.Fields
	}{
		{"Complete", func(*db.Application) {}, apperr.Fields{}},
		{"OptionalFieldsAbsent", func(a *db.Application) { a.Gender, a.TeamMembers, a.MarketingOptIn = nil, "", false }, apperr.Fields{}},
		{"NoPhone", func(a *db.Application) { a.Phone = nil }, apperr.Fields{"phone": "is required"}},
		{"BlankCountry", func(a *db.Application) { a.Country = ptr("") }, apperr.Fields{"country": "is required"}},
		{"NoAge", func(a *db.Application) { a.Age = nil }, apperr.Fields{"age": "is required"}},
		{"ZeroHackathonsIsAnAnswer", func(a *db.Application) { a.HackathonsAttended = ptr(int32(0)) }, apperr.Fields{}},
		{"NoResume", func(a *db.Application) { a.ResumeKey = nil }, apperr.Fields{"resume": "upload a resume"}},
		{"NoAgreements", func(a *db.Application) { a.CocAgreed, a.InfoShareAuthorized = false, false }, apperr.Fields{
			"coc_agreed":            "you must agree to the code of conduct",
			"info_share_authorized": "you must authorize information sharing"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a := complete()
			c.change(&a)
			if got := RequiredForSubmit(a); !maps.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	t.Run("Empty", func(t *testing.T) {
		t.Parallel()
		if got := RequiredForSubmit(db.Application{}); len(got) != 16 {
			t.Fatalf("an empty application misses %d fields (%v), want 16", len(got), got)
		}
	})
}

func TestCheckTeam(t *testing.T) {
	t.Parallel()
	me, bea, cy := uuid.New(), uuid.New(), uuid.New()
	accounts := []db.ProfilesConfirmedByEmailsRow{
		{ID: me, Email: "ada@example.com"}, {ID: bea, Email: "Bea@Example.com"}, {ID: cy, Email: "cy@example.com"},
	}
	for _, c := range []struct {
		name, team, want string
		details          map[string]string
	}{
		{"NoTeam", "", "", nil},
		{"AccountsSpelling", "bea@example.com,CY@example.com", "Bea@Example.com,cy@example.com", nil},
		{"NoAccount", "bea@example.com,dan@example.com", "", map[string]string{"team_members": "dan@example.com has no confirmed account"}},
		{"Yourself", "ADA@example.com", "", map[string]string{"team_members": "you cannot list yourself"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := CheckTeam(c.team, me, accounts)
			if c.details != nil {
				wantErr(t, err, apperr.Invalid, c.details)
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestCheckDecidable(t *testing.T) {
	t.Parallel()
	now := time.Now()
	admin := coi.Actor{ProfileID: uuid.New(), Email: "admin@example.com", Team: "pal@example.com"}
	row := func(status string, rsvp *string) db.DecisionLockApplicationsRow {
		return db.DecisionLockApplicationsRow{ID: uuid.New(), ProfileID: uuid.New(), Status: status, Rsvp: rsvp, DbNow: now}
	}
	ids := func(rows ...db.DecisionLockApplicationsRow) []uuid.UUID {
		out := make([]uuid.UUID, len(rows))
		for i, r := range rows {
			out[i] = r.ID
		}
		return out
	}
	ok1, ok2 := row("submitted", nil), row("submitted", nil)
	draft, answered, expired := row("draft", nil), row("submitted", ptr("attending")), row("submitted", ptr("expired"))
	own := row("submitted", nil)
	own.ProfileID = admin.ProfileID
	team := row("submitted", nil)
	team.TeamMembers = "x@example.com,ADMIN@example.com"
	pal := row("submitted", nil) // the admin's own application lists its applicant
	pal.ApplicantEmail = "Pal@Example.com"
	missing := uuid.New()
	later, earlier := now.Add(time.Hour), now.Add(-time.Second)

	for _, c := range []struct {
		name     string
		ids      []uuid.UUID
		deadline *time.Time
		rows     []db.DecisionLockApplicationsRow
		code     apperr.Code
		message  string
		details  map[string]string
	}{
		{"Decidable", ids(ok1, ok2), &later, []db.DecisionLockApplicationsRow{ok1, ok2}, "", "", nil},
		{"NotFound", append(ids(ok1), missing), nil, []db.DecisionLockApplicationsRow{ok1}, apperr.NotFound,
			"No application with id " + missing.String(), map[string]string{"application_ids": "not found: " + missing.String()}},
		{"Own", ids(ok1, own), nil, []db.DecisionLockApplicationsRow{ok1, own}, apperr.Forbidden,
			"You cannot decide on your own application: " + own.ID.String(), nil},
		{"OwnAndTeam", ids(team, own), nil, []db.DecisionLockApplicationsRow{team, own}, apperr.Forbidden,
			"You cannot decide on your own application: " + own.ID.String() +
				"; you cannot decide on an application that lists you as a team member: " + team.ID.String(), nil},
		{"AllThree", ids(pal, team, own), nil, []db.DecisionLockApplicationsRow{pal, team, own}, apperr.Forbidden,
			"You cannot decide on your own application: " + own.ID.String() +
				"; you cannot decide on an application that lists you as a team member: " + team.ID.String() +
				"; you cannot decide on the application of someone your application lists as a team member: " + pal.ID.String(), nil},
		// Conflicts come before the deadline and the states.
		{"TeamBeforeState", ids(draft, team), &earlier, []db.DecisionLockApplicationsRow{draft, team}, apperr.Forbidden, "", nil},
		{"DeadlinePassedByDatabaseClock", ids(ok1), &earlier, []db.DecisionLockApplicationsRow{ok1}, apperr.Invalid, "",
			map[string]string{"rsvp_deadline": "must be in the future"}},
		{"DeadlineNow", ids(ok1), &now, []db.DecisionLockApplicationsRow{ok1}, apperr.Invalid, "",
			map[string]string{"rsvp_deadline": "must be in the future"}},
		{"States", ids(ok1, draft, answered, expired), nil, []db.DecisionLockApplicationsRow{ok1, draft, answered, expired}, apperr.Invalid, "",
			map[string]string{"application_ids": "not submitted: " + draft.ID.String() + "; already answered: " + answered.ID.String() +
				"; offer expired: " + expired.ID.String()}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := CheckDecidable(c.ids, c.deadline, c.rows, admin)
			wantErr(t, err, c.code, c.details)
			if e, _ := apperr.As(err); c.message != "" && e.Message != c.message {
				t.Fatalf("message %q, want %q", e.Message, c.message)
			}
		})
	}
}

func TestRsvpOpen(t *testing.T) {
	t.Parallel()
	deadline := time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC)
	offer := func(rsvp *string) db.Application {
		return db.Application{Decision: ptr("offer"), RsvpDeadline: &deadline, Rsvp: rsvp}
	}
	closed := "RSVPs closed at 2030-05-01T12:00:00Z"
	for _, c := range []struct {
		name    string
		a       db.Application
		open    bool
		code    apperr.Code
		message string
	}{
		{"Open", offer(nil), true, "", ""},
		{"ChangeOfMind", offer(ptr("declined")), true, "", ""},
		{"Undecided", db.Application{}, true, apperr.Conflict, "Only an application with an offer can be answered"},
		{"Waitlisted", db.Application{Decision: ptr("waitlist")}, true, apperr.Conflict, "Only an application with an offer can be answered"},
		{"PastDeadline", offer(nil), false, apperr.Conflict, closed},
		{"Expired", offer(ptr("expired")), true, apperr.Conflict, closed},
		{"NoDeadline", db.Application{Decision: ptr("offer")}, false, apperr.Conflict, "The RSVP deadline has passed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := RsvpOpen(c.a, c.open)
			wantErr(t, err, c.code, nil)
			if e, _ := apperr.As(err); c.code != "" && e.Message != c.message {
				t.Fatalf("message %q, want %q", e.Message, c.message)
			}
		})
	}
}

func TestDecisionRequestValidate(t *testing.T) {
	t.Parallel()
	id := uuid.NewString()
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	many := make([]string, MaxDecisionBatch+1)
	for i := range many {
		many[i] = uuid.NewString()
	}
	for _, c := range []struct {
		name string
		req  DecisionRequest
		want apperr.Fields
	}{
		{"Offer", DecisionRequest{ApplicationIDs: []string{id}, Decision: DecisionOffer, RsvpDeadline: &future}, apperr.Fields{}},
		{"Reject", DecisionRequest{ApplicationIDs: []string{id}, Decision: DecisionReject}, apperr.Fields{}},
		{"NoIDs", DecisionRequest{Decision: DecisionReject}, apperr.Fields{"application_ids": "must name at least one application"}},
		{"TooMany", DecisionRequest{ApplicationIDs: many, Decision: DecisionReject}, apperr.Fields{"application_ids": "at most 500 applications per request"}},
		{"BadAndTwice", DecisionRequest{ApplicationIDs: []string{id, "x", id}, Decision: DecisionReject},
			apperr.Fields{"application_ids": "not a UUID: x; listed twice: " + id}},
		{"UnknownDecision", DecisionRequest{ApplicationIDs: []string{id}, Decision: "maybe"},
			apperr.Fields{"decision": "must be one of offer, waitlist, reject"}},
		{"OfferWithoutDeadline", DecisionRequest{ApplicationIDs: []string{id}, Decision: DecisionOffer},
			apperr.Fields{"rsvp_deadline": "an offer needs an RSVP deadline"}},
		{"OfferPastDeadline", DecisionRequest{ApplicationIDs: []string{id}, Decision: DecisionOffer, RsvpDeadline: &past},
			apperr.Fields{"rsvp_deadline": "must be in the future"}},
		{"BadDeadline", DecisionRequest{ApplicationIDs: []string{id}, Decision: DecisionOffer, RsvpDeadline: ptr("tomorrow")},
			apperr.Fields{"rsvp_deadline": "must be an RFC 3339 date-time"}},
		{"RejectWithDeadline", DecisionRequest{ApplicationIDs: []string{id}, Decision: DecisionReject, RsvpDeadline: &future},
			apperr.Fields{"rsvp_deadline": "only an offer carries an RSVP deadline"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			req := c.req
			if got := req.Validate(); !maps.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}
