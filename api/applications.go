package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/application"
	"hackdesk/db"
	"hackdesk/hiring"
)

// applicationJSON is an application as its owner (and reviewers) see it.
type applicationJSON struct {
	ID                  uuid.UUID  `json:"id"`
	ProfileID           uuid.UUID  `json:"profile_id"`
	Status              string     `json:"status"`
	Email               *string    `json:"email"`
	Phone               *string    `json:"phone"`
	Discord             *string    `json:"discord"`
	TshirtSize          *string    `json:"tshirt_size"`
	DietaryRestrictions *string    `json:"dietary_restrictions"`
	Age                 *int32     `json:"age"`
	Country             *string    `json:"country"`
	Gender              *string    `json:"gender"`
	Ethnicity           *string    `json:"ethnicity"`
	University          *string    `json:"university"`
	Program             *string    `json:"program"`
	YearOfStudy         *string    `json:"year_of_study"`
	ExperienceLevel     *string    `json:"experience_level"`
	HackathonsAttended  *int32     `json:"hackathons_attended"`
	GithubURL           *string    `json:"github_url"`
	LinkedinURL         *string    `json:"linkedin_url"`
	WebsiteURL          *string    `json:"website_url"`
	ResumeKey           *string    `json:"resume_key"`
	Q1Answer            *string    `json:"q1_answer"`
	Q2Answer            *string    `json:"q2_answer"`
	TeamMembers         string     `json:"team_members"`
	CocAgreed           bool       `json:"coc_agreed"`
	InfoShareAuthorized bool       `json:"info_share_authorized"`
	MarketingOptIn      bool       `json:"marketing_opt_in"`
	CreatedAt           time.Time  `json:"created_at"`
	UpdatedAt           time.Time  `json:"updated_at"`
	SubmittedAt         *time.Time `json:"submitted_at"`
	// The hackathon decision and the applicant's answer to an offer.
	Decision     *string    `json:"decision"`
	RsvpDeadline *time.Time `json:"rsvp_deadline"`
	Rsvp         *string    `json:"rsvp"`
	RsvpAt       *time.Time `json:"rsvp_at"`
	// The exec positions chosen (at most three, open, of one term).
	PositionIDs []uuid.UUID `json:"position_ids"`
	// The answers to question-bank questions, by question id.
	Answers map[string]string `json:"answers"`
}

func toApplicationJSON(a db.Application) applicationJSON {
	if a.PositionIds == nil {
		a.PositionIds = []uuid.UUID{}
	}
	return applicationJSON{
		ID: a.ID, ProfileID: a.ProfileID, Status: a.Status, Email: a.Email, Phone: a.Phone,
		Discord: a.Discord, TshirtSize: a.TshirtSize, DietaryRestrictions: a.DietaryRestrictions,
		Age: a.Age, Country: a.Country, Gender: a.Gender, Ethnicity: a.Ethnicity,
		University: a.University, Program: a.Program, YearOfStudy: a.YearOfStudy,
		ExperienceLevel: a.ExperienceLevel, HackathonsAttended: a.HackathonsAttended,
		GithubURL: a.GithubUrl, LinkedinURL: a.LinkedinUrl, WebsiteURL: a.WebsiteUrl,
		ResumeKey: a.ResumeKey, Q1Answer: a.Q1Answer, Q2Answer: a.Q2Answer, TeamMembers: a.TeamMembers,
		CocAgreed: a.CocAgreed, InfoShareAuthorized: a.InfoShareAuthorized, MarketingOptIn: a.MarketingOptIn,
		CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt, SubmittedAt: a.SubmittedAt,
		Decision: a.Decision, RsvpDeadline: a.RsvpDeadline, Rsvp: a.Rsvp, RsvpAt: a.RsvpAt,
		PositionIDs: a.PositionIds, Answers: map[string]string{},
	}
}

var (
	errNoApplication    = apperr.WithMessage(apperr.NotFound, "No application found", "Create an application first")
	errAlreadySubmitted = apperr.WithMessage(apperr.Conflict, "Application already submitted", "A submitted application cannot be changed")
)

// Field rules of the application form.
const maxTeamMembers = 3

// The patterns are written so that an ECMAScript RegExp with the u flag
// reads them as Go does (no \d, \s, \w or ., classes escaped for both):
// api/openapi.yaml carries each one as it is here, and a test in this
// package keeps the two equal.
var (
	tshirtSizes   = []string{"XS", "S", "M", "L", "XL", "XXL"}
	phonePattern  = regexp.MustCompile(`^\+?[0-9 \(\)\.\-]{7,25}$`)
	discordHandle = regexp.MustCompile(`^[A-Za-z0-9_\.]{2,32}(#[0-9]{4})?$`)
	// webURLPattern: http or https in any case, an authority without user
	// info that holds a dot, then anything after a '/', '?' or '#'.
	webURLPattern = regexp.MustCompile(`^[Hh][Tt][Tt][Pp][Ss]?://[^\/\?#@]*\.[^\/\?#@]*([\/\?#][^\n]*)?$`)
)

// maxURL is the longest link an application holds, in characters.
const maxURL = 300

type createApplicationRequest struct {
	ProfileID string `json:"profile_id"`
}

func (r *createApplicationRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if _, err := uuid.Parse(r.ProfileID); err != nil {
		f.Add("profile_id", "must be a UUID")
	}
	return f
}

// createApplication starts the caller's draft, prefilled with their email.
func (s *Server) createApplication(w http.ResponseWriter, r *http.Request) error {
	var req createApplicationRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	p := principalFrom(r.Context())
	if uuid.MustParse(req.ProfileID) != p.ProfileID {
		return apperr.WithMessage(apperr.Forbidden, "Forbidden", "profile_id must be your own")
	}
	email := p.Email
	a, err := s.store.ApplicationInsert(r.Context(), db.ApplicationInsertParams{ProfileID: p.ProfileID, Email: &email})
	if errors.Is(err, db.ErrConflict) {
		return apperr.New(apperr.Conflict, "Application already exists")
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, toApplicationJSON(a))
	return nil
}

// ownerApplicationJSON is the application as GET /api/applications shows
// it to its owner: with the team's display names, as reviewers see them.
type ownerApplicationJSON struct {
	applicationJSON
	TeamMembersWithNames []TeamMember `json:"team_members_with_names"`
}

// getApplication answers the caller's application, or null.
func (s *Server) getApplication(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	row, err := s.store.ApplicationOwnerView(ctx, principalFrom(ctx).ProfileID)
	if errors.Is(err, db.ErrNotFound) {
		writeJSON(w, http.StatusOK, nil)
		return nil
	}
	if err != nil {
		return err
	}
	var out ownerApplicationJSON
	if out.applicationJSON, err = applicationWithAnswers(ctx, s.store.Queries, row.Application); err != nil {
		return err
	}
	if out.TeamMembersWithNames, err = teamNames(row.TeamMembersWithNames); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// applicationPatch is a partial update: absent fields stay, null clears.
type applicationPatch struct {
	Email               field[string]       `json:"email"`
	Phone               field[string]       `json:"phone"`
	Discord             field[string]       `json:"discord"`
	TshirtSize          field[string]       `json:"tshirt_size"`
	DietaryRestrictions field[listOrString] `json:"dietary_restrictions"`
	Age                 field[int32]        `json:"age"`
	Country             field[string]       `json:"country"`
	Gender              field[listOrString] `json:"gender"`
	Ethnicity           field[listOrString] `json:"ethnicity"`
	University          field[string]       `json:"university"`
	Program             field[string]       `json:"program"`
	YearOfStudy         field[string]       `json:"year_of_study"`
	ExperienceLevel     field[listOrString] `json:"experience_level"`
	HackathonsAttended  field[int32]        `json:"hackathons_attended"`
	GithubURL           field[string]       `json:"github_url"`
	LinkedinURL         field[string]       `json:"linkedin_url"`
	WebsiteURL          field[string]       `json:"website_url"`
	Q1Answer            field[string]       `json:"q1_answer"`
	Q2Answer            field[string]       `json:"q2_answer"`
	TeamMembers         field[listOrString] `json:"team_members"`
	CocAgreed           field[bool]         `json:"coc_agreed"`
	InfoShareAuthorized field[bool]         `json:"info_share_authorized"`
	MarketingOptIn      field[bool]         `json:"marketing_opt_in"`
	PositionIDs         field[[]string]     `json:"position_ids"`
	// Answers to question-bank questions: {question_id: text}; a null or
	// blank text removes that answer. Checked against the questions in
	// the handler.
	Answers field[map[string]*string] `json:"answers"`

	positionIDs []uuid.UUID
}

// textRule checks one text field's value; "" means acceptable.
type textRule func(string) string

func maxChars(n int) textRule {
	return func(v string) string {
		if utf8.RuneCountInString(v) > n {
			return fmt.Sprintf("must be at most %d characters", n)
		}
		return ""
	}
}

func pattern(re *regexp.Regexp, reason string) textRule {
	return func(v string) string {
		if !re.MatchString(v) {
			return reason
		}
		return ""
	}
}

func oneOfRule(set []string) textRule {
	return func(v string) string {
		for _, s := range set {
			if v == s {
				return ""
			}
		}
		return "must be one of " + strings.Join(set, ", ")
	}
}

// webURL accepts a link that matches webURLPattern and parses as a URL.
func webURL(v string) string {
	if !webURLPattern.MatchString(v) {
		return "must be an http(s) URL"
	}
	if _, err := url.Parse(v); err != nil {
		return "must be an http(s) URL"
	}
	return ""
}

func emailRule(v string) string {
	_, why := normalizeEmail(v)
	return why
}

// text validates a set, non-null text field against its rules.
func text[T ~string](f apperr.Fields, name string, fl field[T], rules ...textRule) {
	if !fl.Set || fl.Null {
		return
	}
	v := strings.TrimSpace(string(fl.V))
	if v == "" {
		return // empty clears, like null
	}
	for _, rule := range rules {
		if why := rule(v); why != "" {
			f.Add(name, why)
			return
		}
	}
}

func intRange(f apperr.Fields, name string, fl field[int32], lo, hi int32) {
	if fl.Set && !fl.Null && (fl.V < lo || fl.V > hi) {
		f.Add(name, fmt.Sprintf("must be from %d to %d", lo, hi))
	}
}

func (p *applicationPatch) Validate() apperr.Fields {
	f := apperr.Fields{}
	text(f, "email", p.Email, emailRule)
	text(f, "phone", p.Phone, pattern(phonePattern, "must be a phone number"))
	text(f, "discord", p.Discord, pattern(discordHandle, "must be a Discord username"))
	text(f, "tshirt_size", p.TshirtSize, oneOfRule(tshirtSizes))
	text(f, "dietary_restrictions", p.DietaryRestrictions, maxChars(300))
	intRange(f, "age", p.Age, 13, 100)
	text(f, "country", p.Country, maxChars(100))
	text(f, "gender", p.Gender, maxChars(300))
	text(f, "ethnicity", p.Ethnicity, maxChars(300))
	text(f, "university", p.University, maxChars(200))
	text(f, "program", p.Program, maxChars(200))
	text(f, "year_of_study", p.YearOfStudy, maxChars(50))
	text(f, "experience_level", p.ExperienceLevel, maxChars(300))
	intRange(f, "hackathons_attended", p.HackathonsAttended, 0, 1000)
	text(f, "github_url", p.GithubURL, webURL, maxChars(maxURL))
	text(f, "linkedin_url", p.LinkedinURL, webURL, maxChars(maxURL))
	text(f, "website_url", p.WebsiteURL, webURL, maxChars(maxURL))
	text(f, "q1_answer", p.Q1Answer, maxChars(5000))
	text(f, "q2_answer", p.Q2Answer, maxChars(1000))
	if p.TeamMembers.Set && !p.TeamMembers.Null && p.TeamMembers.V != "" {
		members := strings.Split(string(p.TeamMembers.V), ",")
		seen := map[string]bool{}
		switch {
		case len(members) > maxTeamMembers:
			f.Add("team_members", fmt.Sprintf("at most %d team members", maxTeamMembers))
		default:
			for _, m := range members {
				if why := emailRule(m); why != "" {
					f.Add("team_members", m+" "+why)
				}
				if seen[strings.ToLower(m)] {
					f.Add("team_members", m+" is listed twice")
				}
				seen[strings.ToLower(m)] = true
			}
		}
	}
	if p.PositionIDs.Set && !p.PositionIDs.Null {
		ids, why := parsePositionIDs(p.PositionIDs.V, hiring.MaxPositions)
		if why != "" {
			f.Add("position_ids", why)
		}
		p.positionIDs = ids
	}
	if p.Answers.Set && p.Answers.Null {
		f.Add("answers", "must be an object of question ids to answers")
	}
	return f
}

// parsePositionIDs reads a list of positions: at most limit distinct UUIDs
// (an application's choices, a question's positions). The string is the
// reason the list is refused, empty when it is accepted.
func parsePositionIDs(raw []string, limit int) ([]uuid.UUID, string) {
	if len(raw) > limit {
		return nil, fmt.Sprintf("at most %d positions", limit)
	}
	ids := make([]uuid.UUID, 0, len(raw))
	seen := map[uuid.UUID]bool{}
	for _, v := range raw {
		id, err := uuid.Parse(v)
		if err != nil {
			return nil, v + " is not a UUID"
		}
		if seen[id] {
			return nil, v + " is listed twice"
		}
		seen[id] = true
		ids = append(ids, id)
	}
	return ids, ""
}

// checkPositions checks that the chosen positions exist, are open and
// belong to one term (a 400 on position_ids otherwise).
func checkPositions(ctx context.Context, q *db.Queries, ids []uuid.UUID) error {
	if len(ids) == 0 {
		return nil
	}
	rows, err := q.PositionsByIDs(ctx, ids)
	if err != nil {
		return err
	}
	found := map[uuid.UUID]db.Position{}
	for _, p := range rows {
		found[p.ID] = p
	}
	terms := map[uuid.UUID]bool{}
	for _, id := range ids {
		p, ok := found[id]
		switch {
		case !ok:
			return apperr.ValidationFailed(apperr.Fields{"position_ids": id.String() + " is not a position"})
		case !p.Open:
			return apperr.ValidationFailed(apperr.Fields{"position_ids": p.Title + " is closed"})
		}
		terms[p.TermID] = true
	}
	if len(terms) > 1 {
		return apperr.ValidationFailed(apperr.Fields{"position_ids": "positions must all be of one term"})
	}
	return nil
}

// setText applies a text patch: null or blank clears, otherwise trimmed.
func setText[T ~string](dst **string, fl field[T]) {
	if !fl.Set {
		return
	}
	v := strings.TrimSpace(string(fl.V))
	if fl.Null || v == "" {
		*dst = nil
		return
	}
	*dst = &v
}

func setInt(dst **int32, fl field[int32]) {
	if !fl.Set {
		return
	}
	if fl.Null {
		*dst = nil
		return
	}
	v := fl.V
	*dst = &v
}

func setBool(dst *bool, fl field[bool]) {
	if fl.Set {
		*dst = !fl.Null && fl.V
	}
}

// apply writes the patch onto the stored row.
func (p *applicationPatch) apply(a *db.Application) {
	setText(&a.Email, p.Email)
	setText(&a.Phone, p.Phone)
	setText(&a.Discord, p.Discord)
	setText(&a.TshirtSize, p.TshirtSize)
	setText(&a.DietaryRestrictions, p.DietaryRestrictions)
	setInt(&a.Age, p.Age)
	setText(&a.Country, p.Country)
	setText(&a.Gender, p.Gender)
	setText(&a.Ethnicity, p.Ethnicity)
	setText(&a.University, p.University)
	setText(&a.Program, p.Program)
	setText(&a.YearOfStudy, p.YearOfStudy)
	setText(&a.ExperienceLevel, p.ExperienceLevel)
	setInt(&a.HackathonsAttended, p.HackathonsAttended)
	setText(&a.GithubUrl, p.GithubURL)
	setText(&a.LinkedinUrl, p.LinkedinURL)
	setText(&a.WebsiteUrl, p.WebsiteURL)
	setText(&a.Q1Answer, p.Q1Answer)
	setText(&a.Q2Answer, p.Q2Answer)
	if p.TeamMembers.Set {
		a.TeamMembers = string(p.TeamMembers.V)
		if p.TeamMembers.Null {
			a.TeamMembers = ""
		}
	}
	setBool(&a.CocAgreed, p.CocAgreed)
	setBool(&a.InfoShareAuthorized, p.InfoShareAuthorized)
	setBool(&a.MarketingOptIn, p.MarketingOptIn)
}

// lockDraft loads the caller's application for change: 404 without one,
// 409 once submitted.
func lockDraft(ctx context.Context, q *db.Queries, profileID uuid.UUID) (db.Application, error) {
	a, err := q.ApplicationLockByProfile(ctx, profileID)
	if errors.Is(err, db.ErrNotFound) {
		return a, errNoApplication
	}
	if err != nil {
		return a, err
	}
	if application.Status(a.Status) != application.StatusDraft {
		return a, errAlreadySubmitted
	}
	return a, nil
}

// checkTeam resolves team member emails to confirmed accounts (never the
// applicant) and returns them comma-separated in the accounts' spelling.
func checkTeam(ctx context.Context, q *db.Queries, team string, applicant uuid.UUID) (string, error) {
	if team == "" {
		return "", nil
	}
	members := strings.Split(team, ",")
	lower := make([]string, len(members))
	for i, m := range members {
		lower[i] = strings.ToLower(m)
	}
	rows, err := q.ProfilesConfirmedByEmails(ctx, lower)
	if err != nil {
		return "", err
	}
	found := map[string]db.ProfilesConfirmedByEmailsRow{}
	for _, p := range rows {
		found[strings.ToLower(p.Email)] = p
	}
	out := make([]string, len(members))
	for i, m := range members {
		p, ok := found[lower[i]]
		switch {
		case !ok:
			return "", apperr.ValidationFailed(apperr.Fields{"team_members": m + " has no confirmed account"})
		case p.ID == applicant:
			return "", apperr.ValidationFailed(apperr.Fields{"team_members": "you cannot list yourself"})
		}
		out[i] = p.Email
	}
	return strings.Join(out, ","), nil
}

func (s *Server) patchApplication(w http.ResponseWriter, r *http.Request) error {
	var patch applicationPatch
	if err := decode(w, r, &patch); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	// Team members are looked up as accounts, and the answer tells whether
	// an email has one: the team search's per-caller limit counts it.
	if patch.TeamMembers.Set && !patch.TeamMembers.Null && patch.TeamMembers.V != "" {
		if err := allow(s.limits.search.over(w, r, me.String())); err != nil {
			return err
		}
	}
	var out applicationJSON
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		a, err := lockDraft(ctx, q, me)
		if err != nil {
			return err
		}
		patch.apply(&a)
		if patch.TeamMembers.Set {
			if a.TeamMembers, err = checkTeam(ctx, q, a.TeamMembers, me); err != nil {
				return err
			}
		}
		if err := q.ApplicationUpdate(ctx, updateParams(a)); err != nil {
			return err
		}
		if patch.PositionIDs.Set {
			ids := patch.positionIDs
			if ids == nil {
				ids = []uuid.UUID{}
			}
			if err := checkPositions(ctx, q, ids); err != nil {
				return err
			}
			if err := q.ApplicationSetPositions(ctx, db.ApplicationSetPositionsParams{ID: a.ID, PositionIds: ids}); err != nil {
				return err
			}
			a.PositionIds = ids
		}
		// Answers are checked against the questions of the positions as
		// they stand after this patch.
		if patch.Answers.Set {
			if err := saveAnswers(ctx, q, a, patch.Answers.V); err != nil {
				return err
			}
		}
		if patch.PositionIDs.Set {
			// Answers to questions of positions no longer chosen go.
			if err := q.AnswersDropInapplicable(ctx, db.AnswersDropInapplicableParams{
				ApplicationID: a.ID, PositionIds: a.PositionIds}); err != nil {
				return err
			}
		}
		row, err := q.ApplicationGetByProfile(ctx, me)
		if err != nil {
			return err
		}
		out, err = applicationWithAnswers(ctx, q, row)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "application": out})
	return nil
}

func updateParams(a db.Application) db.ApplicationUpdateParams {
	return db.ApplicationUpdateParams{
		ID: a.ID, Email: a.Email, Phone: a.Phone, Discord: a.Discord, TshirtSize: a.TshirtSize,
		DietaryRestrictions: a.DietaryRestrictions, Age: a.Age, Country: a.Country, Gender: a.Gender,
		Ethnicity: a.Ethnicity, University: a.University, Program: a.Program, YearOfStudy: a.YearOfStudy,
		ExperienceLevel: a.ExperienceLevel, HackathonsAttended: a.HackathonsAttended,
		GithubUrl: a.GithubUrl, LinkedinUrl: a.LinkedinUrl, WebsiteUrl: a.WebsiteUrl,
		Q1Answer: a.Q1Answer, Q2Answer: a.Q2Answer, TeamMembers: a.TeamMembers,
		CocAgreed: a.CocAgreed, InfoShareAuthorized: a.InfoShareAuthorized, MarketingOptIn: a.MarketingOptIn,
	}
}

// requiredForSubmit lists what steps 1 to 5 must hold before submission
// (docs/decisions.md). Demographics, dietary restrictions, links, team and
// the marketing opt-in are optional.
func requiredForSubmit(a db.Application) apperr.Fields {
	f := apperr.Fields{}
	need := func(name string, ok bool, reason string) {
		if !ok {
			f.Add(name, reason)
		}
	}
	set := func(p *string) bool { return p != nil && *p != "" }
	need("email", set(a.Email), "is required")
	need("phone", set(a.Phone), "is required")
	need("discord", set(a.Discord), "is required")
	need("tshirt_size", set(a.TshirtSize), "is required")
	need("age", a.Age != nil, "is required")
	need("country", set(a.Country), "is required")
	need("university", set(a.University), "is required")
	need("program", set(a.Program), "is required")
	need("year_of_study", set(a.YearOfStudy), "is required")
	need("experience_level", set(a.ExperienceLevel), "is required")
	need("hackathons_attended", a.HackathonsAttended != nil, "is required")
	need("resume", set(a.ResumeKey), "upload a resume")
	need("q1_answer", set(a.Q1Answer), "is required")
	need("q2_answer", set(a.Q2Answer), "is required")
	need("coc_agreed", a.CocAgreed, "you must agree to the code of conduct")
	need("info_share_authorized", a.InfoShareAuthorized, "you must authorize information sharing")
	return f
}

// submitApplication validates steps 1 to 5 and locks the application.
func (s *Server) submitApplication(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	var out applicationJSON
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		a, err := lockDraft(ctx, q, me)
		if err != nil {
			return err
		}
		// Answers to questions that no longer apply (a question moved to
		// other positions) are not submitted.
		positions := a.PositionIds
		if positions == nil {
			positions = []uuid.UUID{}
		}
		if err := q.AnswersDropInapplicable(ctx, db.AnswersDropInapplicableParams{
			ApplicationID: a.ID, PositionIds: positions}); err != nil {
			return err
		}
		missing := requiredForSubmit(a)
		more, err := missingAnswers(ctx, q, a)
		if err != nil {
			return err
		}
		for k, v := range more {
			missing[k] = v
		}
		if err := missing.Err(); err != nil {
			return err
		}
		// Team members must still be confirmed accounts.
		if _, err := checkTeam(ctx, q, a.TeamMembers, me); err != nil {
			return err
		}
		// The chosen positions must still be open; each becomes a
		// selection in review.
		if err := checkPositions(ctx, q, a.PositionIds); err != nil {
			return err
		}
		row, err := q.ApplicationSubmit(ctx, a.ID)
		if err != nil {
			return err
		}
		// The opt-in decides who marketing broadcasts reach; an unsubscribe
		// clears it later.
		if err := q.ProfileSetMarketingOptIn(ctx, db.ProfileSetMarketingOptInParams{
			ID: me, MarketingOptIn: row.MarketingOptIn}); err != nil {
			return err
		}
		if _, err = q.SelectionsCreateForApplication(ctx, db.SelectionsCreateForApplicationParams{
			ApplicationID: a.ID, PositionIds: a.PositionIds}); err != nil {
			return err
		}
		out, err = applicationWithAnswers(ctx, q, row)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "application": out})
	return nil
}
