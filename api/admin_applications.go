package api

import (
	"errors"
	"maps"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/db"
	"hackdesk/review"
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
// view of one application (every field, a signed resume link, the team with
// names) and its reviews as the caller may see them (review.ReviewsOf).
func (s *Server) adminGetApplication(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return review.ErrApplicationNotFound
	}
	ctx := r.Context()
	view, err := review.ApplicationView(ctx, s.store.Queries, s.blob, s.log, id)
	if errors.Is(err, db.ErrNotFound) {
		return review.ErrApplicationNotFound
	}
	if err != nil {
		return err
	}
	reviews, hidden, err := review.ReviewsOf(ctx, s.store.Queries, reviewer(principalFrom(ctx)), id) // not found: deleted meanwhile
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"application": view, "reviews": reviews, "reviews_hidden": hidden})
	return nil
}
