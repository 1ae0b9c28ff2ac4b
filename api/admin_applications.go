package api

import (
	"maps"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/internal/feature/review"
	"hackdesk/internal/platform/apperr"
)

// adminListApplications is GET /api/admin/applications?q=&status=&sort=&order=&page=&page_size=:
// every application (drafts too) with its applicant's name, searchable by
// part of the email or name, filterable by status, sortable by one column
// (review.ListQuery).
func (s *Server) adminListApplications(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	v := r.URL.Query()
	lq := review.ListQuery{Q: v.Get("q"), Status: v.Get("status"), Sort: v.Get("sort"), Order: v.Get("order")}
	maps.Copy(fields, lq.Validate())
	if err := fields.Err(); err != nil {
		return err
	}
	rows, total, err := review.List(r.Context(), s.store.Queries, lq, pg.Size, pg.offset())
	if err != nil {
		return err
	}
	writeList(w, "applications", rows, total, pg)
	return nil
}

// adminGetApplication is GET /api/admin/applications/{id}: the reviewer
// view of one application (every field, never redacted: a signed resume
// link, the team with names) and its reviews as the caller may see them,
// each with its total and normalized score (review.DetailsOf).
func (s *Server) adminGetApplication(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return review.ErrApplicationNotFound
	}
	ctx := r.Context()
	out, err := review.DetailsOf(ctx, s.store.Queries, s.blob, s.log, reviewer(principalFrom(ctx)), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
