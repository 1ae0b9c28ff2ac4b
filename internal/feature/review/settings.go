package review

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/patch"
)

// Settings are the review process's settings (one row of
// review_settings). Blind leaves out who the applicant is from the
// reviewer view (Redacted); Cap, when set, takes an application with that
// many reviews out of the queue (Admits).
type Settings struct {
	Blind bool   `json:"blind"`
	Cap   *int32 `json:"cap"`
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
// fields stay as they are; a null cap removes the cap.
type SettingsPatch struct {
	Blind patch.Field[bool]  `json:"blind"`
	Cap   patch.Field[int32] `json:"cap"`
}

// Validate refuses a null blind and a cap below 1.
func (p *SettingsPatch) Validate() apperr.Fields {
	f := apperr.Fields{}
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
	row, err := q.ReviewSettingsGet(ctx)
	if err != nil {
		return Settings{}, err
	}
	return Settings{Blind: row.Blind, Cap: row.Cap}, nil
}

// UpdateSettings applies p (validated again here, so every caller gets the
// same 400) to the settings on behalf of actor and answers the settings
// now in force. A change is recorded in the history with who made it and
// when; a patch that changes nothing records nothing.
func UpdateSettings(ctx context.Context, q *db.Queries, actor uuid.UUID, p SettingsPatch) (Settings, error) {
	if err := p.Validate().Err(); err != nil {
		return Settings{}, err
	}
	row, err := q.ReviewSettingsLock(ctx)
	if err != nil {
		return Settings{}, err
	}
	old := Settings{Blind: row.Blind, Cap: row.Cap}
	next := old.Apply(p)
	if next.equal(old) {
		return old, nil
	}
	set, err := q.ReviewSettingsSet(ctx, db.ReviewSettingsSetParams{ChangedBy: actor, Blind: next.Blind, Cap: next.Cap})
	if err != nil {
		return Settings{}, err
	}
	return Settings{Blind: set.Blind, Cap: set.Cap}, nil
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
	History []SettingsChange `json:"history"`
}

// LoadSettingsWithHistory reads the settings and their history, newest
// change first.
func LoadSettingsWithHistory(ctx context.Context, q *db.Queries) (SettingsWithHistory, error) {
	cur, err := LoadSettings(ctx, q)
	if err != nil {
		return SettingsWithHistory{}, err
	}
	hist, err := SettingsHistory(ctx, q)
	if err != nil {
		return SettingsWithHistory{}, err
	}
	slices.Reverse(hist)
	return SettingsWithHistory{Settings: cur, History: hist}, nil
}
