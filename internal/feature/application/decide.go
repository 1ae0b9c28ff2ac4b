package application

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/coi"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/platform/apperr"
)

// MaxDecisionBatch caps the applications one decision request names.
const MaxDecisionBatch = 500

// DecisionRequest decides on a batch of submitted applications.
type DecisionRequest struct {
	ApplicationIDs []string `json:"application_ids"`
	Decision       Decision `json:"decision"`
	RsvpDeadline   *string  `json:"rsvp_deadline"`
	// AllowOverCapacity lets a batch of offers take the edition past its
	// capacity (the page asks first).
	AllowOverCapacity bool `json:"allow_over_capacity"`
	// HackathonID is the edition the batch is scoped to (?hackathon=);
	// the zero value is the current edition.
	HackathonID uuid.UUID `json:"-"`

	ids      []uuid.UUID // ApplicationIDs parsed by Validate
	deadline *time.Time  // RsvpDeadline parsed by Validate
}

// Validate checks the ids (1 to MaxDecisionBatch distinct UUIDs), the
// decision, and the deadline an offer needs (ahead of this clock; Decide
// checks it again against the database's).
func (r *DecisionRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	switch n := len(r.ApplicationIDs); {
	case n == 0:
		f.Add("application_ids", "must name at least one application")
	case n > MaxDecisionBatch:
		f.Add("application_ids", fmt.Sprintf("at most %d applications per request", MaxDecisionBatch))
	default:
		seen := map[uuid.UUID]bool{}
		var bad, dup []string
		for _, raw := range r.ApplicationIDs {
			id, err := uuid.Parse(raw)
			switch {
			case err != nil:
				bad = append(bad, raw)
			case seen[id]:
				dup = append(dup, raw)
			default:
				seen[id] = true
				r.ids = append(r.ids, id)
			}
		}
		var why []string
		if len(bad) > 0 {
			why = append(why, "not a UUID: "+strings.Join(bad, ", "))
		}
		if len(dup) > 0 {
			why = append(why, "listed twice: "+strings.Join(dup, ", "))
		}
		if len(why) > 0 {
			f.Add("application_ids", strings.Join(why, "; "))
		}
	}
	if !r.Decision.Valid() {
		f.Add("decision", "must be one of "+joinSet(Decisions()))
	}
	if r.RsvpDeadline != nil {
		t, err := time.Parse(time.RFC3339, *r.RsvpDeadline)
		if err != nil {
			f.Add("rsvp_deadline", "must be an RFC 3339 date-time")
		} else {
			t = t.Truncate(time.Microsecond) // what PostgreSQL keeps
			r.deadline = &t
		}
	}
	switch {
	case r.Decision == DecisionOffer && r.RsvpDeadline == nil:
		f.Add("rsvp_deadline", "an offer needs an RSVP deadline")
	case r.Decision == DecisionOffer && r.deadline != nil && !r.deadline.After(time.Now()):
		f.Add("rsvp_deadline", "must be in the future")
	case r.Decision != DecisionOffer && r.Decision.Valid() && r.RsvpDeadline != nil:
		f.Add("rsvp_deadline", "only an offer carries an RSVP deadline")
	}
	return f
}

// joinSet lists the values of set for an error message: "a, b, c".
func joinSet[T ~string](set []T) string {
	s := make([]string, len(set))
	for i, v := range set {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

// decisionDetail is an application_events detail for kind 'decision'; the
// query adds "previous".
type decisionDetail struct {
	Decision     Decision  `json:"decision"`
	RsvpDeadline *string   `json:"rsvp_deadline"`
	BatchID      uuid.UUID `json:"batch_id"`
}

// Decided is what a decision batch did.
type Decided struct {
	Updated int64
	BatchID uuid.UUID
	// Offers is set for a batch of offers: the caller queues the
	// RsvpDeadline workflow that announces, reminds and expires them, in
	// the same transaction.
	Offers *OfferBatch
}

// OfferBatch is a batch of offers sharing a deadline.
type OfferBatch struct {
	Deadline time.Time
	// Window is how long the batch's offers were open (the deadline less
	// the database's now): places freed at the deadline are offered on
	// with the same window.
	Window time.Duration
}

// Decide applies a validated decision request for actor, all or nothing:
// the rows of the request's edition are locked in id order (an
// application of another edition is not found), every one is checked
// (CheckDecidable, with the actor's own team in that edition: actor's Team
// is read here), a batch of offers is checked against the edition's
// capacity (hackathon.CheckOffers: the 409 "Over capacity" unless
// AllowOverCapacity), and only then are the decisions written together
// with one event each, under a new batch id.
func Decide(ctx context.Context, q *db.Queries, actor coi.Actor, req *DecisionRequest) (Decided, error) {
	edition := req.HackathonID
	if edition == uuid.Nil {
		h, err := hackathon.Current(ctx, q)
		if err != nil {
			return Decided{}, err
		}
		edition = h.ID
	}
	batch := uuid.New()
	detail := decisionDetail{Decision: req.Decision, BatchID: batch}
	if req.deadline != nil {
		v := req.deadline.UTC().Format(time.RFC3339Nano)
		detail.RsvpDeadline = &v
	}
	detailJSON, err := json.Marshal(detail)
	if err != nil {
		return Decided{}, err
	}
	rows, err := q.DecisionLockApplications(ctx, db.DecisionLockApplicationsParams{Ids: req.ids, HackathonID: edition})
	if err != nil {
		return Decided{}, err
	}
	if actor, err = coi.ActorIn(ctx, q, actor.ProfileID, actor.Email, edition); err != nil {
		return Decided{}, err
	}
	if err := CheckDecidable(req.ids, req.deadline, rows, actor); err != nil {
		return Decided{}, err
	}
	if req.Decision == DecisionOffer {
		if err := hackathon.CheckOffers(ctx, q, edition, req.ids, req.AllowOverCapacity); err != nil {
			return Decided{}, err
		}
	}
	updated, err := q.DecisionApply(ctx, db.DecisionApplyParams{
		ActorID: actor.ProfileID, Detail: detailJSON, Ids: req.ids, Decision: string(req.Decision), RsvpDeadline: req.deadline,
	})
	if err == nil && updated != int64(len(req.ids)) {
		err = fmt.Errorf("decision batch %s: %d of %d applications updated", batch, updated, len(req.ids))
	}
	if err != nil {
		return Decided{}, err
	}
	out := Decided{Updated: updated, BatchID: batch}
	if req.Decision == DecisionOffer {
		out.Offers = &OfferBatch{Deadline: *req.deadline, Window: req.deadline.Sub(rows[0].DbNow)}
	}
	return out, nil
}

// CheckDecidable checks the locked rows of a decision batch on ids: every
// id found (404), none the actor has a conflict of interest with (403),
// the deadline (if any) ahead by the database's clock and each application
// submitted and not answered or expired (400).
func CheckDecidable(ids []uuid.UUID, deadline *time.Time, rows []db.DecisionLockApplicationsRow, actor coi.Actor) error {
	if len(rows) < len(ids) {
		found := make(map[uuid.UUID]bool, len(rows))
		for _, row := range rows {
			found[row.ID] = true
		}
		var missing []string
		for _, id := range ids {
			if !found[id] {
				missing = append(missing, id.String())
			}
		}
		return &apperr.Error{Code: apperr.NotFound, Title: "Application not found",
			Message: "No application with id " + strings.Join(missing, ", "),
			Details: map[string]string{"application_ids": "not found: " + strings.Join(missing, ", ")}}
	}
	// Conflicts of interest refuse the whole batch, naming each one.
	conflicted := map[coi.Kind][]string{}
	for _, row := range rows {
		k := coi.Of(actor, coi.Application{ProfileID: row.ProfileID, Email: row.ApplicantEmail, TeamMembers: row.TeamMembers})
		if k != coi.None {
			conflicted[k] = append(conflicted[k], row.ID.String())
		}
	}
	if len(conflicted) > 0 {
		var msg string
		for _, k := range coi.Kinds {
			if ids := conflicted[k]; len(ids) > 0 {
				why := k.Message("decide on") + ": " + strings.Join(ids, ", ")
				if msg != "" {
					msg += "; " + strings.ToLower(why[:1]) + why[1:]
				} else {
					msg = why
				}
			}
		}
		return apperr.WithMessage(apperr.Forbidden, "Forbidden", msg)
	}
	// The deadline against the database's clock, the one RSVPs use.
	if deadline != nil && !deadline.After(rows[0].DbNow) {
		return apperr.ValidationFailed(apperr.Fields{"rsvp_deadline": "must be in the future"})
	}
	var notSubmitted, answered, expired []string
	for _, row := range rows {
		id := row.ID.String()
		switch {
		case Status(row.Status) != StatusSubmitted:
			notSubmitted = append(notSubmitted, id)
		case row.Rsvp != nil && Rsvp(*row.Rsvp) == RsvpExpired:
			expired = append(expired, id)
		case row.Rsvp != nil:
			answered = append(answered, id)
		}
	}
	var why []string
	for _, g := range []struct {
		label string
		ids   []string
	}{{"not submitted", notSubmitted}, {"already answered", answered}, {"offer expired", expired}} {
		if len(g.ids) > 0 {
			why = append(why, g.label+": "+strings.Join(g.ids, ", "))
		}
	}
	if len(why) > 0 {
		return apperr.ValidationFailed(apperr.Fields{"application_ids": strings.Join(why, "; ")})
	}
	return nil
}
