package onboarding

import (
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/patch"
)

// FormInput is the body of a form submission (PUT /api/onboarding and
// /api/onboarding/returning). The headshot fields are optional: left out,
// the stored ones stay; a null headshot_key removes the headshot.
type FormInput struct {
	DisplayName     *string             `json:"display_name"`
	Email           *string             `json:"email"`
	Role            *string             `json:"role"`
	TermType        *string             `json:"term_type"`
	HeadshotKey     patch.Field[string] `json:"headshot_key"`
	HeadshotConsent patch.Field[bool]   `json:"headshot_consent"`
	ChatHandle      *string             `json:"chat_handle"`
	PhotoHandle     *string             `json:"photo_handle"`
	DsCompetency    *string             `json:"ds_competency"`
}

// Validate checks that the text fields are there (Submit checks their
// values) and that the consent, when sent, is not null.
func (b *FormInput) Validate() apperr.Fields {
	f := apperr.Fields{}
	for name, v := range map[string]*string{"display_name": b.DisplayName, "email": b.Email, "role": b.Role,
		"term_type": b.TermType, "ds_competency": b.DsCompetency} {
		if v == nil {
			f.Add(name, "is required")
		}
	}
	if b.HeadshotConsent.Set && b.HeadshotConsent.Null {
		f.Add("headshot_consent", "cannot be null")
	}
	return f
}

// Answers are the body's fields as Submit takes them.
func (b *FormInput) Answers() Answers {
	a := Answers{DisplayName: text(b.DisplayName), Email: text(b.Email), Role: text(b.Role),
		TermType: text(b.TermType), ChatHandle: text(b.ChatHandle), PhotoHandle: text(b.PhotoHandle),
		DsCompetency: text(b.DsCompetency), SetHeadshotKey: b.HeadshotKey.Set,
		SetHeadshotConsent: b.HeadshotConsent.Set, HeadshotConsent: b.HeadshotConsent.V}
	if b.HeadshotKey.Set && !b.HeadshotKey.Null {
		a.HeadshotKey = &b.HeadshotKey.V
	}
	return a
}

// text is *s, or "" for nil.
func text(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
