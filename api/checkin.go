package api

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/checkin"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/feature/membership"
	"hackdesk/internal/feature/privacy"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/signing"
)

// ticketSignerOf is the signer of ticket links, from SIGNING_KEY (a random
// key until restart without one, as for the membership QR).
func (s *Server) ticketSignerOf(d Deps) signing.Signer {
	key, err := d.Config.SigningKeyBytes()
	if err != nil {
		key = make([]byte, 32)
		_, _ = rand.Read(key)
	}
	return checkin.Signer(key)
}

// checkinID reads {id} of a check-in route: not a UUID is no application.
func checkinID(r *http.Request) (uuid.UUID, error) {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return uuid.Nil, checkin.ErrNotFound
	}
	return id, nil
}

// querySig is ?sig= when the request has one.
func querySig(r *http.Request) *string {
	if q := r.URL.Query(); q.Has("sig") {
		v := q.Get("sig")
		return &v
	}
	return nil
}

// lookupCheckin is GET /api/checkin/{id}?sig= (staff of the door): the
// person as the door sees them. A signature, when given, must verify
// (403); staff searching need none.
func (s *Server) lookupCheckin(w http.ResponseWriter, r *http.Request) error {
	if err := checkin.CheckSignature(s.ticketSigner, chi.URLParam(r, "id"), querySig(r)); err != nil {
		return err
	}
	id, err := checkinID(r)
	if err != nil {
		return err
	}
	p, err := checkin.Lookup(r.Context(), s.store.Queries, id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, p)
	return nil
}

// searchCheckin is GET /api/checkin?q= (staff of the door): at most 10
// attending or waitlisted people of the current edition by name or email.
func (s *Server) searchCheckin(w http.ResponseWriter, r *http.Request) error {
	hits, err := checkin.Search(r.Context(), s.store.Queries, r.URL.Query().Get("q"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"results": hits})
	return nil
}

// checkinCount is GET /api/checkin/count (staff of the door): checked in
// of attending, in the current edition.
func (s *Server) checkinCount(w http.ResponseWriter, r *http.Request) error {
	c, err := checkin.CurrentCount(r.Context(), s.store.Queries)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c)
	return nil
}

// postCheckin is POST /api/checkin/{id} {sig?, client_id?, walk_in?}:
// checks the person in (checkin.CheckIn); a second check-in is 409 with
// when and by whom.
func (s *Server) postCheckin(w http.ResponseWriter, r *http.Request) error {
	var req checkin.Request
	if err := decode(w, r, &req); err != nil {
		return err
	}
	if err := checkin.CheckSignature(s.ticketSigner, chi.URLParam(r, "id"), querySig(r), req.Sig); err != nil {
		return err
	}
	id, err := checkinID(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	var out checkin.Result
	err = s.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, err = checkin.CheckIn(ctx, q, me, id, req)
		return err
	})
	var already *checkin.AlreadyError
	if errors.As(err, &already) {
		writeJSON(w, http.StatusConflict, map[string]any{"error": "Already checked in",
			"message":       "Checked in at " + already.At.UTC().Format(time.RFC3339) + " by " + already.By,
			"checked_in_at": already.At, "checked_in_by": already.By})
		return nil
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// undoCheckin is DELETE /api/checkin/{id}: undoes a check-in within 10
// minutes (409 after).
func (s *Server) undoCheckin(w http.ResponseWriter, r *http.Request) error {
	id, err := checkinID(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	if err := s.store.InTx(ctx, func(q *db.Queries) error { return checkin.Undo(ctx, q, me, id) }); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// getTicket is GET /api/applications/ticket: the caller's ticket when
// attending the current edition (404 "No ticket" otherwise).
func (s *Server) getTicket(w http.ResponseWriter, r *http.Request) error {
	t, err := checkin.OwnTicket(r.Context(), s.store.Queries, s.cfg.PublicURL, s.ticketSigner, principalFrom(r.Context()).ProfileID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, t)
	return nil
}

// ticketPNG is GET /api/applications/ticket.png: the QR code of the
// caller's ticket link.
func (s *Server) ticketPNG(w http.ResponseWriter, r *http.Request) error {
	t, err := checkin.OwnTicket(r.Context(), s.store.Queries, s.cfg.PublicURL, s.ticketSigner, principalFrom(r.Context()).ProfileID)
	if err != nil {
		return err
	}
	png, err := membership.QRPNG(t.URL)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(png)
	return nil
}

// calendarICS is GET /api/hackathons/current/calendar.ics (public): the
// current edition's event as an RFC 5545 calendar (404 without dates).
func (s *Server) calendarICS(w http.ResponseWriter, r *http.Request) error {
	h, now, err := hackathon.CurrentAt(r.Context(), s.store.Queries)
	if err != nil {
		return err
	}
	body, err := checkin.ICS(h, s.cfg.PublicURL, now)
	if errors.Is(err, checkin.ErrNoEventDates) {
		return errNoEventDates
	}
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="hackathon.ics"`)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(body))
	return nil
}

// volunteerParams reads {id} and {profile_id}: a malformed one is a 404.
func volunteerParams(r *http.Request) (uuid.UUID, uuid.UUID, error) {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return id, id, hackathon.ErrNotFound
	}
	profile, err := uuid.Parse(chi.URLParam(r, "profile_id"))
	if err != nil {
		return id, profile, checkin.ErrVolunteer
	}
	return id, profile, nil
}

// listVolunteers is GET /api/admin/hackathons/{id}/volunteers (superadmin).
func (s *Server) listVolunteers(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return hackathon.ErrNotFound
	}
	out, err := checkin.Volunteers(r.Context(), s.store.Queries, id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"volunteers": out})
	return nil
}

// addVolunteer is PUT /api/admin/hackathons/{id}/volunteers/{profile_id}
// (superadmin, no body): 204, again too.
func (s *Server) addVolunteer(w http.ResponseWriter, r *http.Request) error {
	id, profile, err := volunteerParams(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if err := checkin.AddVolunteer(ctx, s.store.Queries, principalFrom(ctx).ProfileID, id, profile); err != nil {
		return err
	}
	s.sessions.clear() // the volunteer's check-in rights apply at once here
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// removeVolunteer is DELETE /api/admin/hackathons/{id}/volunteers/{profile_id}.
func (s *Server) removeVolunteer(w http.ResponseWriter, r *http.Request) error {
	id, profile, err := volunteerParams(r)
	if err != nil {
		return err
	}
	if err := checkin.RemoveVolunteer(r.Context(), s.store.Queries, id, profile); err != nil {
		return err
	}
	s.sessions.clear() // and end at once here
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// attendanceCSV is GET /api/admin/hackathons/{id}/attendance.csv (admin):
// the attending, streamed a page at a time.
func (s *Server) attendanceCSV(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return hackathon.ErrNotFound
	}
	h, err := hackathon.Get(r.Context(), s.store.Queries, id)
	if err != nil {
		return err
	}
	name := strings.Map(func(c rune) rune {
		if c < 128 && (c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return c
		}
		return '_'
	}, h.Name)
	if err := privacy.LogAttendance(r.Context(), s.store.Queries, actor(principalFrom(r.Context())), id); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name+"-attendance.csv"))
	w.WriteHeader(http.StatusOK)
	// A failed write is the client gone: the status is sent already.
	_ = checkin.WriteAttendance(r.Context(), s.store.Queries, w, id, nil)
	return nil
}

// errNoEventDates is the 404 of a calendar for an edition without dates.
var errNoEventDates = apperr.WithMessage(apperr.NotFound, "No event dates", "The hackathon's dates are not set yet")
