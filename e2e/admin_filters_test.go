package e2e

import (
	"encoding/csv"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// TestAdminApplicationsDecisionFilters: the admin table and its CSV filter
// by decision ("none": not decided on, drafts included) and by the answer
// to an offer ("pending": not answered yet), alone and together.
func TestAdminApplicationsDecisionFilters(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	admin, _ := decAccount(t, a, anon, "admin@example.com", "admin")
	ann, _, annApp := decApplicant(t, a, anon, "ann@example.com", "submitted")
	bob, _, bobApp := decApplicant(t, a, anon, "bob@example.com", "submitted")
	_, _, catApp := decApplicant(t, a, anon, "cat@example.com", "submitted")
	_, _, danApp := decApplicant(t, a, anon, "dan@example.com", "submitted")
	_, _, eveApp := decApplicant(t, a, anon, "eve@example.com", "submitted")
	_, _, fayApp := decApplicant(t, a, anon, "fay@example.com", "submitted")
	_, _, gusApp := decApplicant(t, a, anon, "gus@example.com", "draft")

	deadline := time.Now().Add(2 * time.Hour).UTC().Truncate(time.Second).Format(time.RFC3339)
	decPost(t, admin, http.StatusOK, []uuid.UUID{annApp, bobApp, catApp}, "offer", deadline)
	decPost(t, admin, http.StatusOK, []uuid.UUID{danApp}, "waitlist", nil)
	decPost(t, admin, http.StatusOK, []uuid.UUID{eveApp}, "reject", nil)
	ann.expect(http.StatusOK, "POST", "/api/applications/rsvp", map[string]any{"attending": true})
	bob.expect(http.StatusOK, "POST", "/api/applications/rsvp", map[string]any{"attending": false})

	for _, c := range []struct {
		query string
		want  []uuid.UUID
	}{
		{"", []uuid.UUID{annApp, bobApp, catApp, danApp, eveApp, fayApp, gusApp}},
		{"decision=offer", []uuid.UUID{annApp, bobApp, catApp}},
		{"decision=waitlist", []uuid.UUID{danApp}},
		{"decision=reject", []uuid.UUID{eveApp}},
		{"decision=none", []uuid.UUID{fayApp, gusApp}},
		{"decision=none&status=submitted", []uuid.UUID{fayApp}},
		{"rsvp=attending", []uuid.UUID{annApp}},
		{"rsvp=declined", []uuid.UUID{bobApp}},
		{"rsvp=pending", []uuid.UUID{catApp}},
		{"rsvp=expired", nil},
		{"decision=waitlist&rsvp=pending", nil},
		{"decision=offer&rsvp=pending&q=CAT", []uuid.UUID{catApp}},
	} {
		var page struct {
			Applications []struct {
				ID uuid.UUID `json:"id"`
			} `json:"applications"`
			Total int `json:"total"`
		}
		admin.expect(http.StatusOK, "GET", "/api/admin/applications?page_size=50&"+c.query, nil).JSON(t, &page)
		var got []uuid.UUID
		for _, r := range page.Applications {
			got = append(got, r.ID)
		}
		if !sameIDs(got, c.want) || page.Total != len(c.want) {
			t.Errorf("%q: the table lists %v (total %d), want %v", c.query, got, page.Total, c.want)
		}
		r := admin.expect(http.StatusOK, "GET", "/api/admin/applications/export.csv?"+c.query, nil)
		recs, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
		if err != nil || len(recs) == 0 {
			t.Fatalf("%q: the CSV %v: %s", c.query, err, r.Body)
		}
		var exported []uuid.UUID
		for _, rec := range recs[1:] {
			exported = append(exported, uuid.MustParse(rec[0]))
		}
		if !slices.Equal(exported, got) {
			t.Errorf("%q: the CSV holds %v, the table %v", c.query, exported, got)
		}
	}
	for _, q := range []string{"decision=maybe", "rsvp=yes", "decision=Offer"} {
		r := admin.expect(http.StatusBadRequest, "GET", "/api/admin/applications?"+q, nil)
		field := strings.SplitN(q, "=", 2)[0]
		if !strings.Contains(string(r.Body), `"`+field+`"`) {
			t.Errorf("%q: the 400 does not name %s: %s", q, field, r.Body)
		}
		admin.expect(http.StatusBadRequest, "GET", "/api/admin/applications/export.csv?"+q, nil)
	}
}

// sameIDs is whether a and b hold the same ids, in any order.
func sameIDs(a, b []uuid.UUID) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	cmp := func(p, q uuid.UUID) int { return strings.Compare(p.String(), q.String()) }
	slices.SortFunc(x, cmp)
	slices.SortFunc(y, cmp)
	return slices.Equal(x, y)
}
