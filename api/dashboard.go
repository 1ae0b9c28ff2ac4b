package api

import (
	"net/http"

	"hackdesk/db"
	"hackdesk/internal/feature/review"
)

// dashboard is GET /api/admin/dashboard?interval=1|24&hackathon= (superadmin):
// one edition's funnel (the current edition by default) with its capacity.
// The counts and the timeline are read in one read-only snapshot, so they
// agree.
func (s *Server) dashboard(w http.ResponseWriter, r *http.Request) error {
	hours, err := review.Interval(r.URL.Query().Get("interval"))
	if err != nil {
		return err
	}
	h, err := s.scope(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var out review.Dashboard
	err = s.store.InSnapshot(ctx, func(q *db.Queries) (err error) {
		out, err = review.LoadDashboard(ctx, q, h, hours)
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
