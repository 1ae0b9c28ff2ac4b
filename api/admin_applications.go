package api

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/application"
	"hackdesk/conflict"
	"hackdesk/db"
)

var errAdminAppMissing = apperr.New(apperr.NotFound, "Application not found")

// adminSorts are the columns the admin applications table sorts by; the
// value is passed to AdminApplicationList, which knows only these.
var adminSorts = []string{"created_at", "name", "email", "university", "gender", "reviews"}

// adminApplicationRow is one row of the admin applications table.
type adminApplicationRow struct {
	ID         uuid.UUID `json:"id"`
	Name       *string   `json:"name"`
	Email      string    `json:"email"`
	University *string   `json:"university"`
	Gender     *string   `json:"gender"`
	Reviews    int32     `json:"reviews"`
	Date       time.Time `json:"date"`
	Status     string    `json:"status"`
	Decision   *string   `json:"decision"`
	Rsvp       *string   `json:"rsvp"`
}

func toAdminApplicationRow(a db.AdminApplicationListRow) adminApplicationRow {
	date := a.CreatedAt
	if a.SubmittedAt != nil {
		date = *a.SubmittedAt
	}
	return adminApplicationRow{
		ID: a.ID, Name: a.Name, Email: a.Email, University: a.University, Gender: a.Gender,
		Reviews: a.ReviewCount, Date: date, Status: a.Status, Decision: a.Decision, Rsvp: a.Rsvp,
	}
}

// oneOfParam reads an optional query parameter that must be one of set;
// absent or empty answers def.
func oneOfParam[T ~string](r *http.Request, fields apperr.Fields, name string, def T, set []T) T {
	v := T(r.URL.Query().Get(name))
	if v == "" {
		return def
	}
	if slices.Contains(set, v) {
		return v
	}
	fields.Add(name, "must be one of "+joinSet(set))
	return def
}

// joinSet lists the values of set for an error message: "a, b, c".
func joinSet[T ~string](set []T) string {
	s := make([]string, len(set))
	for i, v := range set {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

// adminListApplications is GET /api/admin/applications?q=&status=&sort=&order=&page=&page_size=:
// every application (drafts too) with its applicant's name, searchable by
// part of the email or name, filterable by status, sortable by one column.
func (s *Server) adminListApplications(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	sort := oneOfParam(r, fields, "sort", "created_at", adminSorts)
	order := oneOfParam(r, fields, "order", "desc", []string{"asc", "desc"})
	var status *string
	if v := oneOfParam(r, fields, "status", "", application.Statuses()); v != "" {
		st := string(v)
		status = &st
	}
	var pattern *string
	q := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("q")))
	switch {
	case len(q) > 100:
		fields.Add("q", "must be at most 100 characters")
	case q != "":
		p := "%" + likeEscaper.Replace(q) + "%"
		pattern = &p
	}
	if err := fields.Err(); err != nil {
		return err
	}
	ctx := r.Context()
	rows, err := s.store.AdminApplicationList(ctx, db.AdminApplicationListParams{
		Status: status, Pattern: pattern, Sort: sort, OrderDir: order,
		PageLimit: pg.Size, PageOffset: pg.offset(),
	})
	if err != nil {
		return err
	}
	total, err := s.store.AdminApplicationCount(ctx, db.AdminApplicationCountParams{Status: status, Pattern: pattern})
	if err != nil {
		return err
	}
	out := make([]adminApplicationRow, len(rows))
	for i, a := range rows {
		out[i] = toAdminApplicationRow(a)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"applications": out, "total": total, "page": pg.Number, "page_size": pg.Size,
	})
	return nil
}

// adminReviewJSON is one review of an application with its reviewer.
type adminReviewJSON struct {
	ID            uuid.UUID `json:"id"`
	ReviewerID    uuid.UUID `json:"reviewer_id"`
	ReviewerName  *string   `json:"reviewer_name"`
	ReviewerEmail string    `json:"reviewer_email"`
	ResumeScore   int32     `json:"resume_score"`
	LinksScore    int32     `json:"links_score"`
	Q1Score       int32     `json:"q1_score"`
	Q2Score       int32     `json:"q2_score"`
	ReviewedAt    time.Time `json:"reviewed_at"`
}

// adminGetApplication is GET /api/admin/applications/{id}: the reviewer
// view of one application (every field, a signed resume link, the team with
// names) and its reviews, oldest first. The reviews of the caller's own
// application, or of one whose team lists the caller, are withheld:
// "reviews" is empty and "reviews_hidden" true.
func (s *Server) adminGetApplication(w http.ResponseWriter, r *http.Request) error {
	id, err := uuid.Parse(chi.URLParam(r, "id"))
	if err != nil {
		return errAdminAppMissing
	}
	ctx := r.Context()
	view, err := ReviewView(ctx, s.store, s.blob, s.log, id)
	if errors.Is(err, db.ErrNotFound) {
		return errAdminAppMissing
	}
	if err != nil {
		return err
	}
	app, err := s.store.ApplicationReviewConflict(ctx, id)
	if errors.Is(err, db.ErrNotFound) { // deleted meanwhile
		return errAdminAppMissing
	}
	if err != nil {
		return err
	}
	hidden := conflictOf(principalFrom(ctx), app.ProfileID, app.TeamMembers) != conflict.None
	reviews := []adminReviewJSON{}
	if !hidden {
		rows, err := s.store.ReviewsForApplication(ctx, id)
		if err != nil {
			return err
		}
		for _, rv := range rows {
			reviews = append(reviews, adminReviewJSON{
				ID: rv.ID, ReviewerID: rv.ReviewerID, ReviewerName: rv.ReviewerName, ReviewerEmail: rv.ReviewerEmail,
				ResumeScore: rv.ResumeScore, LinksScore: rv.LinksScore, Q1Score: rv.Q1Score, Q2Score: rv.Q2Score,
				ReviewedAt: rv.ReviewedAt,
			})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"application": view, "reviews": reviews, "reviews_hidden": hidden})
	return nil
}
