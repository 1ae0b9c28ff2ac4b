package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/application"
	"hackdesk/conflict"
	"hackdesk/db"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// maxDecisionBatch caps the applications one decision request names.
const maxDecisionBatch = 500

var errNoOffer = apperr.WithMessage(apperr.Conflict, "No offer", "Only an application with an offer can be answered")

// rsvpClosed is the 409 for an answer at or after the deadline.
func rsvpClosed(deadline *time.Time) error {
	msg := "The RSVP deadline has passed"
	if deadline != nil {
		msg = "RSVPs closed at " + deadline.UTC().Format(time.RFC3339)
	}
	return apperr.WithMessage(apperr.Conflict, "RSVP closed", msg)
}

type decisionRequest struct {
	ApplicationIDs []string             `json:"application_ids"`
	Decision       application.Decision `json:"decision"`
	RsvpDeadline   *string              `json:"rsvp_deadline"`

	ids      []uuid.UUID
	deadline *time.Time
}

func (r *decisionRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	switch n := len(r.ApplicationIDs); {
	case n == 0:
		f.Add("application_ids", "must name at least one application")
	case n > maxDecisionBatch:
		f.Add("application_ids", fmt.Sprintf("at most %d applications per request", maxDecisionBatch))
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
		f.Add("decision", "must be one of "+joinSet(application.Decisions()))
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
	case r.Decision == application.DecisionOffer && r.RsvpDeadline == nil:
		f.Add("rsvp_deadline", "an offer needs an RSVP deadline")
	case r.Decision == application.DecisionOffer && r.deadline != nil && !r.deadline.After(time.Now()):
		f.Add("rsvp_deadline", "must be in the future")
	case r.Decision != application.DecisionOffer && r.Decision.Valid() && r.RsvpDeadline != nil:
		f.Add("rsvp_deadline", "only an offer carries an RSVP deadline")
	}
	return f
}

// decisionDetail is an application_events detail for kind 'decision'; the
// query adds "previous".
type decisionDetail struct {
	Decision     application.Decision `json:"decision"`
	RsvpDeadline *string              `json:"rsvp_deadline"`
	BatchID      uuid.UUID            `json:"batch_id"`
}

// decide is POST /api/admin/applications/decisions (admin). The batch is
// all or nothing: the rows are locked in id order, every one is checked,
// and only then are the decisions written together with one event each.
// An unknown id is 404; the caller's own application, or one whose team
// lists them, is 403 naming those ids (the conflict-of-interest rule); an
// application that is not submitted or whose applicant has answered (or
// whose offer expired) is 400 with the offending ids in details. An
// Idempotency-Key header makes a retried request answer the stored
// response (idempotentTx).
func (s *Server) decide(w http.ResponseWriter, r *http.Request) error {
	var req decisionRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	caller := principalFrom(ctx)
	me := caller.ProfileID
	batch := uuid.New()
	detail := decisionDetail{Decision: req.Decision, BatchID: batch}
	if req.deadline != nil {
		v := req.deadline.UTC().Format(time.RFC3339Nano)
		detail.RsvpDeadline = &v
	}
	detailJSON, err := json.Marshal(detail)
	if err != nil {
		return err
	}
	out, err := s.idempotentTx(ctx, r, me, "POST /api/admin/applications/decisions", &req, func(q *db.Queries) (answer, error) {
		rows, err := q.DecisionLockApplications(ctx, req.ids)
		if err != nil {
			return answer{}, err
		}
		if err := checkDecidable(req, rows, caller); err != nil {
			return answer{}, err
		}
		updated, err := q.DecisionApply(ctx, db.DecisionApplyParams{
			ActorID: me, Detail: detailJSON, Ids: req.ids, Decision: string(req.Decision), RsvpDeadline: req.deadline,
		})
		if err == nil && updated != int64(len(req.ids)) {
			err = fmt.Errorf("decision batch %s: %d of %d applications updated", batch, updated, len(req.ids))
		}
		if err != nil {
			return answer{}, err
		}
		if req.Decision == application.DecisionOffer {
			// Offers are announced, reminded and expired by RsvpDeadline,
			// queued in this transaction and started after it commits.
			// Places freed at the deadline are offered on with the same
			// window as this batch.
			if _, err := outbox.Enqueue(ctx, q, workflows.RsvpDeadlineRequest(workflows.RsvpDeadlineInput{
				BatchID: batch, Deadline: *req.deadline, Window: req.deadline.Sub(rows[0].DbNow),
				PublicURL: strings.TrimRight(s.cfg.PublicURL, "/"),
			})); err != nil {
				return answer{}, err
			}
		}
		return answer{http.StatusOK, map[string]any{"success": true, "updated": updated, "batch_id": batch}}, nil
	})
	if err != nil {
		return err
	}
	writeJSON(w, out.status, out.body)
	return nil
}

// checkDecidable checks the locked rows of a decision batch: every id
// found (404), none the caller has a conflict of interest with (403), the
// deadline ahead by the database's clock and each application submitted
// and not answered or expired (400).
func checkDecidable(req decisionRequest, rows []db.DecisionLockApplicationsRow, caller *Principal) error {
	if len(rows) < len(req.ids) {
		found := make(map[uuid.UUID]bool, len(rows))
		for _, row := range rows {
			found[row.ID] = true
		}
		var missing []string
		for _, id := range req.ids {
			if !found[id] {
				missing = append(missing, id.String())
			}
		}
		return &apperr.Error{Code: apperr.NotFound, Title: "Application not found",
			Message: "No application with id " + strings.Join(missing, ", "),
			Details: map[string]string{"application_ids": "not found: " + strings.Join(missing, ", ")}}
	}
	// Conflicts of interest refuse the whole batch, naming each one.
	conflicted := map[conflict.Kind][]string{}
	for _, row := range rows {
		if k := conflictOf(caller, row.ProfileID, row.TeamMembers); k != conflict.None {
			conflicted[k] = append(conflicted[k], row.ID.String())
		}
	}
	if len(conflicted) > 0 {
		var msg string
		for _, k := range []conflict.Kind{conflict.Own, conflict.Team} {
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
	if req.deadline != nil && !req.deadline.After(rows[0].DbNow) {
		return apperr.ValidationFailed(apperr.Fields{"rsvp_deadline": "must be in the future"})
	}
	var notSubmitted, answered, expired []string
	for _, row := range rows {
		id := row.ID.String()
		switch {
		case application.Status(row.Status) != application.StatusSubmitted:
			notSubmitted = append(notSubmitted, id)
		case row.Rsvp != nil && application.Rsvp(*row.Rsvp) == application.RsvpExpired:
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

type rsvpRequest struct {
	Attending *bool `json:"attending"`
}

func (r *rsvpRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if r.Attending == nil {
		f.Add("attending", "is required")
	}
	return f
}

// rsvp is POST /api/applications/rsvp: the applicant answers their offer.
// The answer may change until the deadline (judged by the database's
// clock); each change is an 'rsvp' event, and repeating the current answer
// changes nothing.
func (s *Server) rsvp(w http.ResponseWriter, r *http.Request) error {
	var req rsvpRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	answer := application.RsvpDeclined
	if *req.Attending {
		answer = application.RsvpAttending
	}
	var out db.Application
	err := s.store.InTx(ctx, func(q *db.Queries) error {
		row, err := q.RsvpLockByProfile(ctx, me)
		if errors.Is(err, db.ErrNotFound) {
			return errNoApplication
		}
		if err != nil {
			return err
		}
		a := row.Application
		switch {
		case a.Decision == nil || application.Decision(*a.Decision) != application.DecisionOffer:
			return errNoOffer
		case !row.Open || (a.Rsvp != nil && application.Rsvp(*a.Rsvp) == application.RsvpExpired):
			return rsvpClosed(a.RsvpDeadline)
		case a.Rsvp != nil && application.Rsvp(*a.Rsvp) == answer:
			out = a // the same answer again: nothing changes
			return nil
		}
		detail, err := json.Marshal(map[string]any{"attending": *req.Attending, "previous": a.Rsvp})
		if err != nil {
			return err
		}
		if out, err = q.RsvpSet(ctx, db.RsvpSetParams{Rsvp: string(answer), ID: a.ID}); err != nil {
			return err
		}
		return q.ApplicationEventInsert(ctx, db.ApplicationEventInsertParams{
			ApplicationID: a.ID, ActorID: &me, Kind: "rsvp", Detail: detail,
		})
	})
	if err != nil {
		return err
	}
	view, err := applicationWithAnswers(ctx, s.store.Queries, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "application": view})
	return nil
}
