package broadcast

import (
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// RequestAudience is who a composed broadcast goes to, as the request
// names it.
type RequestAudience struct {
	Kind   Kind    `json:"kind"`
	TermID *string `json:"term_id"`
	Status *string `json:"status"`
}

// Request is a broadcast as a superadmin composes it: what it says, who it
// goes to, and whether it is marketing (sent only to those who opted in).
type Request struct {
	Subject   string           `json:"subject"`
	Body      string           `json:"body" text:"lines"`
	Audience  *RequestAudience `json:"audience"`
	Marketing *bool            `json:"marketing"`

	// Set by Validate: the parsed term id and the decision filter.
	termID   *uuid.UUID
	decision *string
}

// Validate returns the reason for each field that breaks the rules
// (CheckSubject, CheckBody, CheckAudience, a term id that is no UUID).
func (r *Request) Validate() apperr.Fields {
	f := apperr.Fields{}
	if why := CheckSubject(r.Subject); why != "" {
		f.Add("subject", why)
	}
	if why := CheckBody(r.Body); why != "" {
		f.Add("body", why)
	}
	r.termID, r.decision = validateAudience(r.Audience, f)
	return f
}

// validateAudience adds the reason for each field of the audience that
// breaks the rules to f and returns the parsed term id and decision filter.
func validateAudience(ra *RequestAudience, f apperr.Fields) (termID *uuid.UUID, decision *string) {
	if ra == nil {
		f.Add("audience", "is required: {kind, term_id?, status?}")
		return nil, nil
	}
	a := Audience{Kind: ra.Kind, HasTerm: ra.TermID != nil}
	if ra.Status != nil {
		d := Decision(*ra.Status)
		a.Decision = &d
		decision = ra.Status
	}
	for field, why := range CheckAudience(a) {
		f.Add(field, why)
	}
	if ra.TermID != nil {
		id, err := uuid.Parse(*ra.TermID)
		if err != nil {
			f.Add("audience.term_id", "must be a term id (UUID)")
		}
		termID = &id
	}
	return termID, decision
}

// PreviewRequest is who a broadcast would go to, asked before composing
// it: the audience and whether it is marketing, as in Request.
type PreviewRequest struct {
	Audience  *RequestAudience `json:"audience"`
	Marketing *bool            `json:"marketing"`

	// Set by Validate: the parsed term id and the decision filter.
	termID   *uuid.UUID
	decision *string
}

// Validate returns the reason for each field that breaks the rules of a
// broadcast's audience (the same as Request's).
func (r *PreviewRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	r.termID, r.decision = validateAudience(r.Audience, f)
	return f
}

// request is the preview as the audience part of a broadcast request.
func (r PreviewRequest) request() Request {
	return Request{Audience: r.Audience, Marketing: r.Marketing, termID: r.termID, decision: r.decision}
}

// IsMarketing reports whether the broadcast is marketing: when asked, and
// always to the marketing audience.
func (r *Request) IsMarketing() bool {
	return (r.Marketing != nil && *r.Marketing) || (r.Audience != nil && r.Audience.Kind == Marketing)
}

// View is a broadcast as superadmins see it: what it is, where it stands
// and who it went to (never the recipient list).
type View struct {
	ID                uuid.UUID    `json:"id"`
	Subject           string       `json:"subject"`
	Status            string       `json:"status"`
	Total             int32        `json:"total"`
	Sent              int32        `json:"sent"`
	Failed            int32        `json:"failed"`
	Skipped           int32        `json:"skipped"`
	CreatedAt         time.Time    `json:"created_at"`
	FinishedAt        *time.Time   `json:"finished_at"`
	Audience          AudienceView `json:"audience"`
	Marketing         bool         `json:"marketing"`
	WorkflowID        string       `json:"workflow_id"`
	CreatedBy         uuid.UUID    `json:"created_by"`
	CancelRequestedAt *time.Time   `json:"cancel_requested_at"`
}

// AudienceView is a broadcast's audience as superadmins see it.
type AudienceView struct {
	Kind   string     `json:"kind"`
	TermID *uuid.UUID `json:"term_id"`
	Status *string    `json:"status"`
}

func toView(b db.Broadcast) View {
	return View{ID: b.ID, Subject: b.Subject, Status: b.Status, Total: b.Total, Sent: b.Sent, Failed: b.Failed,
		Skipped: b.Skipped, CreatedAt: b.CreatedAt, FinishedAt: b.FinishedAt, Marketing: b.Marketing, WorkflowID: b.WorkflowID,
		CreatedBy: b.CreatedBy, CancelRequestedAt: b.CancelRequestedAt,
		Audience: AudienceView{Kind: b.AudienceKind, TermID: b.TermID, Status: b.Decision}}
}
