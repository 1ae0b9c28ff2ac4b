package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"hackdesk/db"
	"hackdesk/internal/feature/account"
	"hackdesk/internal/feature/privacy"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/ratelimit"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// A person's own data: the export, the erasure and "Keep my account"
// (package privacy); and the superadmins' views of the access log, the
// erasures and the retention runs.

// deleteMe is DELETE /api/me {password}: the caller's account is locked at
// once (every session ends) and erased after the grace period
// (ERASURE_GRACE) by the AccountErasure workflow, started through the
// outbox in the same transaction. 202 {erase_at}. A wrong password is 403
// "Wrong password" with nothing locked (and counts against the caller
// like a failed login); the last superadmin and a hiring-term exec are 409
// "Account cannot be deleted". Asking again answers the same date and
// starts nothing new.
func (s *Server) deleteMe(w http.ResponseWriter, r *http.Request) error {
	var req privacy.DeleteRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx)
	failures := ratelimit.EmailIPKey(me.Email, r.RemoteAddr)
	if err := allow(full(w, s.limits.LoginFailures, failures)); err != nil {
		return err
	}
	err := privacy.CheckPassword(ctx, s.store.Queries, me.ProfileID, req.Password)
	if errors.Is(err, privacy.ErrWrongPassword) {
		s.limits.LoginFailures.Fail(ctx, failures)
	}
	if err != nil {
		return hashErr(w, err)
	}
	var sch privacy.Scheduled
	err = s.store.InTx(ctx, func(q *db.Queries) (err error) {
		sch, err = privacy.RequestErasure(ctx, q, me.ProfileID, s.cfg.ErasureGrace)
		if err != nil || !sch.New {
			return err
		}
		_, err = outbox.Enqueue(ctx, q, workflows.AccountErasureRequest(workflows.AccountErasureInput{
			ProfileID: me.ProfileID, Settle: s.cfg.ErasureSettle}))
		return err
	})
	if err != nil {
		return err
	}
	s.sessions.clear() // the account is locked: its sessions end here at once
	s.setSessionCookie(w, "", -time.Second)
	writeJSON(w, http.StatusAccepted, map[string]any{"erase_at": sch.EraseAt.UTC()})
	return nil
}

// keepAccount is POST /api/auth/keep {email, password} (public, limited as
// login is): "Keep my account" during the grace period. The credentials
// are checked as a login checks them; the erasure is cancelled (its
// workflow told through the outbox) and a session opened as a login's,
// 200 {token, user} and the cookie. An account not scheduled just signs
// in; one whose erasure has begun is 403.
func (s *Server) keepAccount(w http.ResponseWriter, r *http.Request) error {
	var req account.LoginRequest
	if err := decode(w, r, &req); err != nil {
		return err
	}
	failures := ratelimit.EmailIPKey(req.Email, r.RemoteAddr)
	if err := allow(
		over(w, r, s.limits.LoginIP, ratelimit.ClientKey(r.RemoteAddr)),
		full(w, s.limits.LoginFailures, failures)); err != nil {
		return err
	}
	ctx := r.Context()
	p, err := account.Credentials(ctx, s.store.Queries, req)
	if errors.Is(err, account.ErrBadCredentials) {
		s.limits.LoginFailures.Fail(ctx, failures)
	}
	if err != nil {
		return hashErr(w, err)
	}
	var out account.Opened
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		kept, err := privacy.Keep(ctx, q, p.ID)
		if err != nil {
			return err
		}
		if kept {
			if _, err := outbox.Enqueue(ctx, q, workflows.AccountErasureRequest(workflows.AccountErasureInput{
				ProfileID: p.ID, Settle: s.cfg.ErasureSettle})); err != nil {
				return err
			}
		}
		out, err = account.OpenSession(ctx, q, p.ID)
		return err
	})
	if err != nil {
		return err
	}
	s.setSessionCookie(w, out.Token, account.SessionAbsolute)
	writeJSON(w, http.StatusOK, map[string]any{"token": out.Token, "user": toUserJSON(out.User)})
	return nil
}

// exportMe is GET /api/me/export: a ZIP of everything the club keeps about
// the caller (privacy.Collect: data.json, their résumés and headshots),
// streamed from the object store with its exact Content-Length, so the
// page can show the download's progress. Limited per account (5 an hour).
func (s *Server) exportMe(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	me := principalFrom(ctx)
	if err := allow(over(w, r, s.limits.Export, me.ProfileID.String())); err != nil {
		return err
	}
	var e privacy.Export
	err := s.store.InSnapshot(ctx, func(q *db.Queries) (err error) {
		e, err = privacy.Collect(ctx, q, me.ProfileID)
		return err
	})
	if err != nil {
		return err
	}
	zip, err := privacy.Open(ctx, s.blob, s.log, e)
	if err != nil {
		return err
	}
	defer zip.Close()
	size, err := zip.Size()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q",
		"hackdesk-data-"+e.ExportedAt.Format("2006-01-02")+".zip"))
	w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	w.WriteHeader(http.StatusOK)
	if _, err := zip.WriteTo(w); err != nil && !errors.Is(err, context.Canceled) {
		s.log.ErrorContext(ctx, "export", "err", err)
	}
	return nil
}

// actor is the caller as the access log names a staff member.
func actor(p *Principal) privacy.Actor {
	a := privacy.Actor{ProfileID: p.ProfileID, Role: p.Role}
	if p.ExecPosition != "" {
		pos := p.ExecPosition
		a.ExecPosition = &pos
	}
	return a
}

// logAccess writes the caller's reads to the access log before the data
// is answered: a read that cannot be logged is not answered.
func (s *Server) logAccess(ctx context.Context, action privacy.Action, reads ...privacy.Read) error {
	return privacy.LogAccess(ctx, s.store.Queries, actor(principalFrom(ctx)), action, reads...)
}

// adminAccessLog is GET /api/admin/access?actor=&subject=&page=&page_size=
// (superadmin): the staff access log, newest first, filtered by the staff
// member who read and by the person read about.
func (s *Server) adminAccessLog(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	v := r.URL.Query()
	f, err := privacy.ParseAccessQuery(v.Get("actor"), v.Get("subject"))
	if err != nil {
		return err
	}
	items, total, err := privacy.AccessLog(r.Context(), s.store.Queries, f, int(pg.Size), int(pg.offset()))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "total": total, "page": pg.Number, "page_size": pg.Size})
	return nil
}

type erasureJSON struct {
	ProfileID   string                     `json:"profile_id"`
	RequestedAt time.Time                  `json:"requested_at"`
	EraseAt     time.Time                  `json:"erase_at"`
	ErasingAt   *time.Time                 `json:"erasing_at"`
	ErasedAt    *time.Time                 `json:"erased_at"`
	Status      string                     `json:"status"` // scheduled, erasing, erased
	WorkflowID  string                     `json:"workflow_id"`
	RunURL      *string                    `json:"run_url"`
	Progress    *workflows.ErasureProgress `json:"progress"`
}

// adminErasures is GET /api/admin/erasures (superadmin): the erasures
// scheduled or under way and those finished in the last 30 days, each
// with its workflow's progress (the progress query; null when Temporal
// did not answer in time or the run has ended).
func (s *Server) adminErasures(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	rows, err := privacy.Erasures(ctx, s.store.Queries)
	if err != nil {
		return err
	}
	out := make([]erasureJSON, 0, len(rows))
	for _, row := range rows {
		e := erasureJSON{ProfileID: row.ProfileID.String(), RequestedAt: row.RequestedAt.UTC(), EraseAt: row.EraseAt.UTC(),
			ErasingAt: row.ErasingAt, ErasedAt: row.ErasedAt, Status: row.Status(),
			WorkflowID: workflows.AccountErasureID(row.ProfileID)}
		if u := s.cfg.RunURL(e.WorkflowID, ""); u != "" {
			e.RunURL = &u
		}
		if e.Status != "erased" && s.temporal != nil {
			qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			if v, err := s.temporal.QueryWorkflow(qctx, e.WorkflowID, "", workflows.ProgressQuery); err == nil {
				var p workflows.ErasureProgress
				if v.Get(&p) == nil {
					e.Progress = &p
				}
			}
			cancel()
		}
		out = append(out, e)
	}
	writeJSON(w, http.StatusOK, map[string]any{"erasures": out})
	return nil
}

// adminRetention is GET /api/admin/retention (superadmin): RETENTION_DAYS
// and the last retention run (null before the first): when it ran and
// what it purged, by kind.
func (s *Server) adminRetention(w http.ResponseWriter, r *http.Request) error {
	last, err := privacy.LastRun(r.Context(), s.store.Queries)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"retention_days": s.cfg.RetentionDays, "last_run": last})
	return nil
}
