package review

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/patch"
)

// Settings are the review process's settings (one row of
// review_settings). Blind leaves out who the applicant is from the
// reviewer view (Redacted); Cap, when set, takes an application with that
// many reviews out of the queue (Admits). The rubric, shown under each
// score on the review page, is read and written beside them (Rubric); the
// history records Blind and Cap only.
type Settings struct {
	Blind bool   `json:"blind"`
	Cap   *int32 `json:"cap"`
}

// RubricLine says what the lowest (0) and the highest score of one
// criterion mean.
type RubricLine struct {
	Low  string `json:"low"`
	High string `json:"high"`
}

// Rubric is the rubric of the four scores, keyed by Criteria's names.
type Rubric map[string]RubricLine

// RubricMax is the longest a rubric line may be (the schema's CHECK).
const RubricMax = 200

// checkRubric adds to f why a rubric patch is not one: an unknown
// criterion, or a line empty or longer than RubricMax.
func checkRubric(f apperr.Fields, r Rubric) {
	for name, line := range r {
		if !slices.ContainsFunc(Criteria, func(c Criterion) bool { return c.Name == name }) {
			f.Add("rubric."+name, "is not a score")
			continue
		}
		for part, v := range map[string]string{"low": line.Low, "high": line.High} {
			if n := utf8.RuneCountInString(strings.TrimSpace(v)); n < 1 || n > RubricMax {
				f.Add("rubric."+name+"."+part, fmt.Sprintf("must be 1 to %d characters", RubricMax))
			}
		}
	}
}

func rubricOf(r db.ReviewSettingsGetRow) Rubric {
	return Rubric{
		"resume_score": {r.RubricResumeLow, r.RubricResumeHigh},
		"links_score":  {r.RubricLinksLow, r.RubricLinksHigh},
		"q1_score":     {r.RubricQ1Low, r.RubricQ1High},
		"q2_score":     {r.RubricQ2Low, r.RubricQ2High},
	}
}

// Admits reports whether an application with reviews reviews stays in
// the queue: always without a cap, else while it has fewer than the cap.
func (s Settings) Admits(reviews int32) bool {
	return s.Cap == nil || reviews < *s.Cap
}

// equal reports whether two settings hold the same values.
func (s Settings) equal(o Settings) bool {
	if s.Blind != o.Blind || (s.Cap == nil) != (o.Cap == nil) {
		return false
	}
	return s.Cap == nil || *s.Cap == *o.Cap
}

// SettingsPatch is the body of PATCH /api/admin/review-settings: absent
// fields stay as they are; a null cap removes the cap; rubric sets the
// lines of the scores it names.
type SettingsPatch struct {
	Blind  patch.Field[bool]  `json:"blind"`
	Cap    patch.Field[int32] `json:"cap"`
	Rubric Rubric             `json:"rubric"`
}

// Validate refuses a null blind, a cap below 1 and a rubric line that is
// empty, too long or of no score.
func (p *SettingsPatch) Validate() apperr.Fields {
	f := apperr.Fields{}
	checkRubric(f, p.Rubric)
	if p.Blind.Set && p.Blind.Null {
		f.Add("blind", "cannot be null")
	}
	if p.Cap.Value() && p.Cap.V < 1 {
		f.Add("cap", "must be null or at least 1")
	}
	return f
}

// Apply is s with the patch's fields.
func (s Settings) Apply(p SettingsPatch) Settings {
	if p.Blind.Value() {
		s.Blind = p.Blind.V
	}
	switch {
	case p.Cap.Value():
		c := p.Cap.V
		s.Cap = &c
	case p.Cap.Set:
		s.Cap = nil
	}
	return s
}

// LoadSettings reads the review settings.
func LoadSettings(ctx context.Context, q *db.Queries) (Settings, error) {
	s, _, err := loadAll(ctx, q)
	return s, err
}

// loadAll reads the review settings and the rubric.
func loadAll(ctx context.Context, q *db.Queries) (Settings, Rubric, error) {
	row, err := q.ReviewSettingsGet(ctx)
	if err != nil {
		return Settings{}, nil, err
	}
	return Settings{Blind: row.Blind, Cap: row.Cap}, rubricOf(row), nil
}

// LoadRubric reads the rubric shown under each score.
func LoadRubric(ctx context.Context, q *db.Queries) (Rubric, error) {
	_, r, err := loadAll(ctx, q)
	return r, err
}

// SettingsWithRubric are the settings in force and the rubric: the answer
// of PATCH /api/admin/review-settings.
type SettingsWithRubric struct {
	Settings
	Rubric Rubric `json:"rubric"`
}

// UpdateSettings applies p (validated again here, so every caller gets the
// same 400) to the settings on behalf of actor and answers the settings
// now in force. A change of blind review or the cap is recorded in the
// history with who made it and when; a patch that changes neither
// records nothing. The rubric's lines are trimmed.
func UpdateSettings(ctx context.Context, q *db.Queries, actor uuid.UUID, p SettingsPatch) (SettingsWithRubric, error) {
	if err := p.Validate().Err(); err != nil {
		return SettingsWithRubric{}, err
	}
	row, err := q.ReviewSettingsLock(ctx)
	if err != nil {
		return SettingsWithRubric{}, err
	}
	old := Settings{Blind: row.Blind, Cap: row.Cap}
	rubric := rubricOf(db.ReviewSettingsGetRow(row))
	if len(p.Rubric) > 0 {
		for name, line := range p.Rubric {
			rubric[name] = RubricLine{Low: strings.TrimSpace(line.Low), High: strings.TrimSpace(line.High)}
		}
		if err := q.ReviewRubricSet(ctx, db.ReviewRubricSetParams{
			ResumeLow: rubric["resume_score"].Low, ResumeHigh: rubric["resume_score"].High,
			LinksLow: rubric["links_score"].Low, LinksHigh: rubric["links_score"].High,
			Q1Low: rubric["q1_score"].Low, Q1High: rubric["q1_score"].High,
			Q2Low: rubric["q2_score"].Low, Q2High: rubric["q2_score"].High,
		}); err != nil {
			return SettingsWithRubric{}, err
		}
	}
	next := old.Apply(p)
	if next.equal(old) {
		return SettingsWithRubric{Settings: old, Rubric: rubric}, nil
	}
	set, err := q.ReviewSettingsSet(ctx, db.ReviewSettingsSetParams{ChangedBy: actor, Blind: next.Blind, Cap: next.Cap})
	if err != nil {
		return SettingsWithRubric{}, err
	}
	return SettingsWithRubric{Settings: Settings{Blind: set.Blind, Cap: set.Cap}, Rubric: rubric}, nil
}

// SettingsChange is one recorded change: the settings it left, who made
// it (nil, with no name or email, once their account is gone) and when.
type SettingsChange struct {
	Settings
	ChangedBy      *uuid.UUID `json:"changed_by"`
	ChangedByName  *string    `json:"changed_by_name"`
	ChangedByEmail *string    `json:"changed_by_email"`
	ChangedAt      time.Time  `json:"changed_at"`
}

// SettingsHistory lists every change of the settings, oldest first.
func SettingsHistory(ctx context.Context, q *db.Queries) ([]SettingsChange, error) {
	rows, err := q.ReviewSettingsHistory(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]SettingsChange, len(rows))
	for i, r := range rows {
		out[i] = SettingsChange{Settings: Settings{Blind: r.Blind, Cap: r.Cap}, ChangedBy: r.ChangedBy,
			ChangedByName: r.ChangedByName, ChangedByEmail: r.ChangedByEmail, ChangedAt: r.ChangedAt}
	}
	return out, nil
}

// SettingsWithHistory are the settings in force and every change of them,
// newest first: the answer of the settings page.
type SettingsWithHistory struct {
	Settings
	Rubric  Rubric           `json:"rubric"`
	History []SettingsChange `json:"history"`
}

// LoadSettingsWithHistory reads the settings and their history, newest
// change first.
func LoadSettingsWithHistory(ctx context.Context, q *db.Queries) (SettingsWithHistory, error) {
	cur, rubric, err := loadAll(ctx, q)
	if err != nil {
		return SettingsWithHistory{}, err
	}
	hist, err := SettingsHistory(ctx, q)
	if err != nil {
		return SettingsWithHistory{}, err
	}
	slices.Reverse(hist)
	return SettingsWithHistory{Settings: cur, Rubric: rubric, History: hist}, nil
}
