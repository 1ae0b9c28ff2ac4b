package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"hackdesk/internal/feature/account"
)

// Requests that start each kind of workflow, made through an API process
// as a user would.

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// staff is a superadmin and an admin with sessions, for the routes that
// need them.
type staff struct {
	super, admin Client
}

func newStaff(ctx context.Context, e *Env, api string) (staff, error) {
	var st staff
	for _, a := range []struct {
		role string
		c    *Client
	}{{"superadmin", &st.super}, {"admin", &st.admin}} {
		id, err := e.Account(ctx, a.role+"-"+randomHex(3)+"@example.com", a.role)
		if err != nil {
			return st, err
		}
		tok, err := e.Session(ctx, id)
		if err != nil {
			return st, err
		}
		*a.c = Client{Base: api, Token: tok}
	}
	return st, nil
}

// signup signs a new account up (its confirmation email is a SendEmail
// workflow), from its own client address.
func signup(ctx context.Context, api, email, ip string) (Resp, error) {
	return Client{Base: api, IP: ip}.Do(ctx, http.MethodPost, "/api/auth/signup",
		map[string]string{"email": email, "password": "correct horse battery staple", "display_name": "Reliability"})
}

// submittedApplications makes n applicant accounts with submitted
// applications and returns the application ids.
func submittedApplications(ctx context.Context, e *Env, n int, prefix string) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	for i := 0; i < n; i++ {
		owner, err := e.Account(ctx, fmt.Sprintf("%s-%d-%s@example.com", prefix, i, randomHex(2)), "member")
		if err != nil {
			return nil, err
		}
		id, err := e.SeedApplication(ctx, owner, "submitted")
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// offer decides an offer for the applications (an RsvpDeadline workflow
// for the batch, which emails each applicant) and returns the batch id.
func offer(ctx context.Context, admin Client, ids []uuid.UUID, deadline time.Time, headers ...string) (uuid.UUID, Resp, error) {
	r, err := admin.Do(ctx, http.MethodPost, "/api/admin/applications/decisions", map[string]any{
		"application_ids": ids, "decision": "offer", "rsvp_deadline": deadline.UTC().Format(time.RFC3339)}, headers...)
	if err != nil || r.Status != http.StatusOK {
		return uuid.Nil, r, err
	}
	var out struct {
		BatchID uuid.UUID `json:"batch_id"`
	}
	return out.BatchID, r, r.JSON(&out)
}

// launchProject launches a Foundry project on the stand-in GitHub.
func launchProject(ctx context.Context, admin Client) (string, error) {
	var teams struct {
		Teams []struct{ Slug string } `json:"teams"`
	}
	r, err := admin.Expect(ctx, http.StatusOK, http.MethodGet, "/api/codehost/teams", nil)
	if err != nil {
		return "", err
	}
	if err := r.JSON(&teams); err != nil || len(teams.Teams) == 0 {
		return "", fmt.Errorf("no code host teams: %s", clip(r.Body))
	}
	r, err = admin.Expect(ctx, http.StatusAccepted, http.MethodPost, "/api/codehost/foundry/launch", map[string]any{
		"name": "rel-" + randomHex(4), "description": "reliability", "project_type": "nextjs", "database": "postgresql",
		"redis": false, "s3": false, "team_slug": teams.Teams[0].Slug, "private": true})
	if err != nil {
		return "", err
	}
	var out struct {
		WorkflowID string `json:"workflow_id"`
	}
	return out.WorkflowID, r.JSON(&out)
}

// termWithWindows creates a term whose two form windows are open now and
// close at closes (its TermWindow workflow announces, then records both
// closes).
func termWithWindows(ctx context.Context, super Client, closes time.Time) (uuid.UUID, error) {
	opens := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	c := closes.UTC().Format(time.RFC3339)
	year := 2040 + int(time.Now().UnixNano()%50)
	r, err := super.Expect(ctx, http.StatusCreated, http.MethodPost, "/api/admin/terms", map[string]any{
		"name": "Windows " + randomHex(3), "starts_on": fmt.Sprintf("%d-09-01", year), "ends_on": fmt.Sprintf("%d-08-31", year+1),
		"onboarding_opens_at": opens, "onboarding_closes_at": c, "returning_opens_at": opens, "returning_closes_at": c})
	if err != nil {
		return uuid.Nil, err
	}
	var out struct {
		Term struct {
			ID uuid.UUID `json:"id"`
		} `json:"term"`
	}
	return out.Term.ID, r.JSON(&out)
}

// applicant is a member with a draft application (seeded with a resume
// key whose object does not exist).
func applicant(ctx context.Context, e *Env, api string) (Client, uuid.UUID, error) {
	id, err := e.Account(ctx, "applicant-"+randomHex(3)+"@example.com", "member")
	if err != nil {
		return Client{}, uuid.Nil, err
	}
	if _, err := e.SeedApplication(ctx, id, "draft"); err != nil {
		return Client{}, uuid.Nil, err
	}
	tok, err := e.Session(ctx, id)
	return Client{Base: api, Token: tok}, id, err
}

// hiring is a hiring round ready to finalize: n applicants have accepted
// offers for positions of the new term.
type hiring struct {
	term  uuid.UUID
	pres  Client
	hires []string // emails
}

// setupHiring builds the round through the API (terms, positions,
// applications choosing them, the President's decisions). The offer
// emails go through the worker, so one must be running.
func setupHiring(ctx context.Context, e *Env, api string, st staff, n int) (*hiring, error) {
	term := func(name, starts, ends string, active bool) (uuid.UUID, error) {
		r, err := st.super.Expect(ctx, http.StatusCreated, http.MethodPost, "/api/admin/terms",
			map[string]any{"name": name, "starts_on": starts, "ends_on": ends, "active": active})
		if err != nil {
			return uuid.Nil, err
		}
		var out struct {
			Term struct {
				ID uuid.UUID `json:"id"`
			} `json:"term"`
		}
		return out.Term.ID, r.JSON(&out)
	}
	old, err := term("2025-2026", "2025-09-01", "2026-08-31", true)
	if err != nil {
		return nil, err
	}
	next, err := term("2026-2027", "2026-09-01", "2027-08-31", false)
	if err != nil {
		return nil, err
	}
	presEmail := "pres-" + randomHex(3) + "@example.com"
	presID, err := e.Account(ctx, presEmail, "admin")
	if err != nil {
		return nil, err
	}
	if err := account.GrantByEmail(ctx, e.Store, presEmail, account.Change{Exec: "President", Subteam: "Board", TermID: &old}); err != nil {
		return nil, err
	}
	tok, err := e.Session(ctx, presID)
	if err != nil {
		return nil, err
	}
	h := &hiring{term: next, pres: Client{Base: api, Token: tok}}
	var positions []uuid.UUID
	for _, p := range []struct{ title, subteam string }{{"Developer", "Tech"}, {"Designer", "Design"}} {
		r, err := h.pres.Expect(ctx, http.StatusCreated, http.MethodPost, "/api/positions",
			map[string]any{"term_id": next, "title": p.title, "subteam": p.subteam, "grants": "exec"})
		if err != nil {
			return nil, err
		}
		var out struct {
			Position struct {
				ID uuid.UUID `json:"id"`
			} `json:"position"`
		}
		if err := r.JSON(&out); err != nil {
			return nil, err
		}
		positions = append(positions, out.Position.ID)
	}
	for i := 0; i < n; i++ {
		c, id, err := applicant(ctx, e, api)
		if err != nil {
			return nil, err
		}
		pos := positions[i%len(positions)]
		if _, err := c.Expect(ctx, http.StatusOK, http.MethodPatch, "/api/applications", map[string]any{"position_ids": []uuid.UUID{pos}}); err != nil {
			return nil, err
		}
		if _, err := c.Expect(ctx, http.StatusOK, http.MethodPost, "/api/applications/submit", nil); err != nil {
			return nil, err
		}
		var sel uuid.UUID
		var email string
		if err := e.Store.Pool().QueryRow(ctx, `SELECT s.id, p.email FROM selections s JOIN applications a ON a.id = s.application_id
			JOIN profiles p ON p.id = a.profile_id WHERE a.profile_id = $1`, id).Scan(&sel, &email); err != nil {
			return nil, err
		}
		for _, status := range []string{"wanted", "offer_sent", "accepted_offer"} {
			if _, err := h.pres.Expect(ctx, http.StatusOK, http.MethodPatch, "/api/applications/hiring/selections/"+sel.String(),
				map[string]any{"status": status}); err != nil {
				return nil, err
			}
		}
		h.hires = append(h.hires, email)
	}
	return h, nil
}

// finalize asks for the finalization and returns its workflow id.
func (h *hiring) finalize(ctx context.Context) (string, error) {
	r, err := h.pres.Expect(ctx, http.StatusAccepted, http.MethodPost, "/api/applications/hiring/finalize",
		map[string]any{"term_id": h.term, "all_hands_url": "https://cal.example.com/all-hands"})
	if err != nil {
		return "", err
	}
	var out struct {
		WorkflowID string `json:"workflow_id"`
	}
	return out.WorkflowID, r.JSON(&out)
}

// staffedEnv is where most scenarios begin: a scenario's database with an
// API and a worker running, and a superadmin and an admin signed in.
type staffedEnv struct {
	*Env
	api, worker *Proc
	staff
}

// newStaffedEnv starts one; Close stops its processes.
func (s *Suite) newStaffedEnv(ctx context.Context, name string) (*staffedEnv, error) {
	e, err := s.NewEnv(ctx, name)
	if err != nil {
		return nil, err
	}
	se := &staffedEnv{Env: e}
	if se.api, err = e.StartAPI(ctx); err == nil {
		if se.worker, err = e.StartWorker(ctx); err == nil {
			se.staff, err = newStaff(ctx, e, se.api.URL)
		}
	}
	if err != nil {
		e.Close()
		return nil, err
	}
	return se, nil
}

// checkAllCompleted waits for every workflow of the env to close (first
// wait), then for its emails to settle, then for the workflows those
// emails started (a minute each), and checks that every one completed.
func checkAllCompleted(ctx context.Context, s *Suite, e *Env, r *Result, first time.Duration) error {
	ids, err := e.WorkflowIDs(ctx)
	if err != nil {
		return err
	}
	if _, err := s.WaitClosed(ctx, ids, first); err != nil {
		return err
	}
	if err := e.WaitEmailsSettled(ctx, time.Minute); err != nil {
		return err
	}
	if ids, err = e.WorkflowIDs(ctx); err != nil {
		return err
	}
	closed, err := s.WaitClosed(ctx, ids, time.Minute)
	if err != nil {
		return err
	}
	r.Check(len(closed.Bad) == 0, "every workflow completed", "%s", closed)
	return nil
}
