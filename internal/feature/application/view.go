package application

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/feature/hiring"
)

// View is an application as its owner (and reviewers) see it.
type View struct {
	ID                  uuid.UUID  `json:"id"`
	ProfileID           uuid.UUID  `json:"profile_id"`
	HackathonID         uuid.UUID  `json:"hackathon_id"` // the edition it belongs to
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
	// The event day: the waiver accepted with the RSVP, the check-in.
	WaiverAcceptedAt *time.Time `json:"waiver_accepted_at"`
	CheckedInAt      *time.Time `json:"checked_in_at"`
	// The exec positions chosen (at most three, open, of one term).
	PositionIDs []uuid.UUID `json:"position_ids"`
	// The answers to question-bank questions, by question id.
	Answers map[string]string `json:"answers"`
}

// ToView is the row as View, without its answers (WithAnswers loads them).
func ToView(a db.Application) View {
	if a.PositionIds == nil {
		a.PositionIds = []uuid.UUID{}
	}
	return View{
		ID: a.ID, ProfileID: a.ProfileID, HackathonID: a.HackathonID, Status: a.Status, Email: a.Email, Phone: a.Phone,
		Discord: a.Discord, TshirtSize: a.TshirtSize, DietaryRestrictions: a.DietaryRestrictions,
		Age: a.Age, Country: a.Country, Gender: a.Gender, Ethnicity: a.Ethnicity,
		University: a.University, Program: a.Program, YearOfStudy: a.YearOfStudy,
		ExperienceLevel: a.ExperienceLevel, HackathonsAttended: a.HackathonsAttended,
		GithubURL: a.GithubUrl, LinkedinURL: a.LinkedinUrl, WebsiteURL: a.WebsiteUrl,
		ResumeKey: a.ResumeKey, Q1Answer: a.Q1Answer, Q2Answer: a.Q2Answer, TeamMembers: a.TeamMembers,
		CocAgreed: a.CocAgreed, InfoShareAuthorized: a.InfoShareAuthorized, MarketingOptIn: a.MarketingOptIn,
		CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt, SubmittedAt: a.SubmittedAt,
		Decision: a.Decision, RsvpDeadline: a.RsvpDeadline, Rsvp: a.Rsvp, RsvpAt: a.RsvpAt,
		WaiverAcceptedAt: a.WaiverAcceptedAt, CheckedInAt: a.CheckedInAt,
		PositionIDs: a.PositionIds, Answers: map[string]string{},
	}
}

// WithAnswers is the application's View with its answers.
func WithAnswers(ctx context.Context, q *db.Queries, a db.Application) (View, error) {
	out := ToView(a)
	byApp, err := hiring.AnswersOf(ctx, q, a.ID)
	if err != nil {
		return out, err
	}
	out.Answers = hiring.AnswerMap(byApp[a.ID])
	return out, nil
}

// TeamMember is a teammate with their display name.
type TeamMember struct {
	Email       string  `json:"email"`
	DisplayName *string `json:"display_name"`
}

// TeamNames decodes application_team_names (the SQL function every view
// of a team with its names uses).
func TeamNames(raw json.RawMessage) ([]TeamMember, error) {
	var out []TeamMember
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// OwnerView is the application as GET /api/applications shows it to its
// owner: with the team's display names, as reviewers see them.
type OwnerView struct {
	View
	TeamMembersWithNames []TeamMember `json:"team_members_with_names"`
}

// Owner loads the profile's application in the current edition as its
// owner sees it; nil when there is none.
func Owner(ctx context.Context, q *db.Queries, profileID uuid.UUID) (*OwnerView, error) {
	row, err := q.ApplicationOwnerView(ctx, profileID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out OwnerView
	if out.View, err = WithAnswers(ctx, q, row.Application); err != nil {
		return nil, err
	}
	if out.TeamMembersWithNames, err = TeamNames(row.TeamMembersWithNames); err != nil {
		return nil, err
	}
	return &out, nil
}

// Earlier is one of the caller's applications of an earlier edition, as
// GET /api/applications/history lists it (read-only).
type Earlier struct {
	ID           uuid.UUID     `json:"id"`
	Hackathon    hackathon.Ref `json:"hackathon"`
	Status       string        `json:"status"`
	Decision     *string       `json:"decision"`
	Rsvp         *string       `json:"rsvp"`
	RsvpDeadline *time.Time    `json:"rsvp_deadline"`
	SubmittedAt  *time.Time    `json:"submitted_at"`
}

// History lists the profile's applications of editions other than the
// current one, the latest edition first (empty, never nil).
func History(ctx context.Context, q *db.Queries, profileID uuid.UUID) ([]Earlier, error) {
	rows, err := q.ApplicationHistoryByProfile(ctx, profileID)
	if err != nil {
		return nil, err
	}
	out := make([]Earlier, len(rows))
	for i, r := range rows {
		out[i] = Earlier{ID: r.ID, Hackathon: hackathon.Ref{ID: r.HackathonID, Name: r.HackathonName}, Status: r.Status,
			Decision: r.Decision, Rsvp: r.Rsvp, RsvpDeadline: r.RsvpDeadline, SubmittedAt: r.SubmittedAt}
	}
	return out, nil
}
