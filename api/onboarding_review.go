package api

import (
	"fmt"
	"net/http"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/feature/onboarding"
	"hackdesk/internal/feature/privacy"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/apperr"
)

// reviewSubmissions loads the submissions a VP (their subteam) or a
// President (all) may see, of the ?kind= (onboarding by default) and term.
func (s *Server) reviewSubmissions(r *http.Request) (db.Term, onboarding.Kind, []db.ExecFormSubmissionListRow, error) {
	ctx := r.Context()
	kind, err := onboarding.ParseKind(r.URL.Query().Get("kind"))
	if err != nil {
		return db.Term{}, kind, nil, err
	}
	t, err := hiring.TermOf(ctx, s.store.Queries, r.URL.Query().Get("term_id"))
	if err != nil {
		return t, kind, nil, err
	}
	rows, err := onboarding.Review(ctx, s.store.Queries, t, kind, reviewSubteam(r))
	return t, kind, rows, err
}

// reviewSubteam is the subteam a reviewer sees: a VP's own, nil for a
// President (everyone).
func reviewSubteam(r *http.Request) *string {
	scope := hiringActor(principalFrom(r.Context())).Scope
	if scope.All {
		return nil
	}
	return &scope.Subteam
}

// listSubmissions is GET /api/onboarding/submissions?term_id=&kind=&page=&page_size=.
func (s *Server) listSubmissions(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	t, kind, rows, err := s.reviewSubmissions(r)
	if err != nil {
		return err
	}
	missing, err := onboarding.Missing(r.Context(), s.store.Queries, t, kind, reviewSubteam(r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"term": term.ToView(t), "kind": kind,
		"submissions": onboarding.ReviewItems(pageOf(rows, pg)), "total": len(rows), "page": pg.Number, "page_size": pg.Size,
		"missing": missing})
	return nil
}

// exportCSV is GET /api/onboarding/export.csv?term_id=&kind=: a header row,
// then one row per submission written as it goes.
func (s *Server) exportCSV(w http.ResponseWriter, r *http.Request) error {
	t, kind, rows, err := s.reviewSubmissions(r)
	if err != nil {
		return err
	}
	if err := s.logAccess(r.Context(), privacy.ActionOnboardingCSV, submissionReads(rows)...); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", onboarding.ExportFilename(t.Name, kind, "csv")))
	w.WriteHeader(http.StatusOK)
	_ = onboarding.WriteCSV(w, rows) // a failed write is the client gone: the status is sent already
	return nil
}

// exportHeadshots is GET /api/onboarding/headshots.zip?term_id=&kind=: the
// headshots in scope as a ZIP streamed from the object store to the client
// (onboarding.WriteHeadshotZip).
func (s *Server) exportHeadshots(w http.ResponseWriter, r *http.Request) error {
	t, kind, rows, err := s.reviewSubmissions(r)
	if err != nil {
		return err
	}
	var withHeadshot []db.ExecFormSubmissionListRow
	for _, row := range rows {
		if row.HeadshotKey != nil {
			withHeadshot = append(withHeadshot, row)
		}
	}
	if err := s.logAccess(r.Context(), privacy.ActionOnboardingHeadshots, submissionReads(withHeadshot)...); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", onboarding.ExportFilename(t.Name, kind, "zip")))
	w.WriteHeader(http.StatusOK)
	onboarding.WriteHeadshotZip(r.Context(), w, s.blob, s.log, rows)
	return nil
}

// submissionReads are the access log's rows of an export: one per person
// in it.
func submissionReads(rows []db.ExecFormSubmissionListRow) []privacy.Read {
	out := make([]privacy.Read, len(rows))
	for i, row := range rows {
		out[i] = privacy.Read{Subject: row.ProfileID, Object: row.ID}
	}
	return out
}
