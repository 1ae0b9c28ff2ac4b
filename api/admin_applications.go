package api

import (
	"encoding/csv"
	"maps"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/feature/onboarding"
	"hackdesk/internal/feature/privacy"
	"hackdesk/internal/feature/review"
	"hackdesk/internal/platform/apperr"
)

// adminListApplications is GET /api/admin/applications?hackathon=&q=&status=&decision=&rsvp=&sort=&order=&page=&page_size=:
// every application of the edition (drafts too; the current edition by
// default) with its applicant's name, searchable by part of the email or
// name, filterable by status, decision and RSVP, sortable by one column
// (review.ListQuery).
// The scores of an application the caller has a conflict of interest
// with are null, as its details withhold its reviews. The answer names
// the edition.
func (s *Server) adminListApplications(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	v := r.URL.Query()
	lq := review.ListQuery{Q: v.Get("q"), Status: v.Get("status"), Decision: v.Get("decision"), Rsvp: v.Get("rsvp"),
		Sort: v.Get("sort"), Order: v.Get("order")}
	maps.Copy(fields, lq.Validate())
	if err := fields.Err(); err != nil {
		return err
	}
	h, err := s.scope(r)
	if err != nil {
		return err
	}
	lq.Hackathon = h.ID
	rows, total, err := review.List(r.Context(), s.store.Queries, reviewer(principalFrom(r.Context())), lq, pg.Size, pg.offset())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"applications": rows, "total": total, "page": pg.Number,
		"page_size": pg.Size, "hackathon": hackathon.RefOf(h)})
	return nil
}

// adminExportApplications is GET /api/admin/applications/export.csv?hackathon=&q=&status=&decision=&rsvp=&sort=&order=:
// every row of the admin table for the same query (no pages) as CSV, in
// the table's order and with its rules (the scores of an application the
// caller has a conflict of interest with are empty). Rows are written as
// PostgreSQL sends them, flushed every 500, so an edition of any size is
// exported with the memory of one row; every text cell is neutralised
// against spreadsheet formulas (the numbers are written as numbers).
func (s *Server) adminExportApplications(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	lq := review.ListQuery{Q: v.Get("q"), Status: v.Get("status"), Decision: v.Get("decision"), Rsvp: v.Get("rsvp"),
		Sort: v.Get("sort"), Order: v.Get("order")}
	if err := lq.Validate().Err(); err != nil {
		return err
	}
	h, err := s.scope(r)
	if err != nil {
		return err
	}
	lq.Hackathon = h.ID
	ctx := r.Context()
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="applications.csv"`)
	cw := csv.NewWriter(w)
	started, n := false, 0
	err = review.Each(ctx, s.store.Queries, reviewer(principalFrom(ctx)), lq, func(a review.AdminRow) error {
		if !started { // the status only once the statement has answered
			started = true
			w.WriteHeader(http.StatusOK)
			_ = cw.Write(review.CSVHeader)
		}
		rec := a.CSVRecord()
		for _, i := range review.CSVTextCells {
			rec[i] = onboarding.CSVCell(rec[i])
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
		if n++; n%500 == 0 {
			cw.Flush()
			return cw.Error()
		}
		return nil
	})
	if err != nil && !started {
		return err
	}
	if err != nil { // the client went away, or the statement failed mid-way: the status is sent already
		if ctx.Err() == nil {
			s.log.Warn("admin applications export ended early", "rows", n, "err", err)
		}
		return nil
	}
	if !started {
		w.WriteHeader(http.StatusOK)
		_ = cw.Write(review.CSVHeader)
	}
	cw.Flush()
	return nil
}

// adminGetApplication is GET /api/admin/applications/{id}?hackathon=: the
// reviewer view of one application of the edition (the current one by
// default; another edition's is 404): every field, never redacted, a
// signed resume link, the team with names, and its reviews as the caller
// may see them, each with its total and normalized score
// (review.DetailsOf). Each answer writes the access log (the details and,
// when it hands out a résumé link, the link).
func (s *Server) adminGetApplication(w http.ResponseWriter, r *http.Request) error {
	h, err := s.scope(r)
	if err != nil {
		return err
	}
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return review.ErrApplicationNotFound
	}
	ctx := r.Context()
	out, err := review.DetailsOf(ctx, s.store.Queries, s.blob, s.log, reviewer(principalFrom(ctx)), h.ID, id)
	if err != nil {
		return err
	}
	// The read is logged before it is answered: the details, and the
	// résumé links they hand out (the review queue's are not logged).
	read := privacy.Read{Subject: out.Application.ProfileID, Object: out.Application.ID}
	if err := s.logAccess(ctx, privacy.ActionApplicationView, read); err != nil {
		return err
	}
	if out.Application.ResumeURL != nil {
		if err := s.logAccess(ctx, privacy.ActionResumeLink, read); err != nil {
			return err
		}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
