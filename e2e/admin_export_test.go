package e2e

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAdminApplicationsExport: the CSV export is the admin table for the same
// query, every row (no pages), in its order, with the same cells.
func TestAdminApplicationsExport(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	f := buildAdminFixture(t, a, anon)
	admin := f.admins["admin1"]
	const path = "/api/admin/applications/export.csv"

	anon.expect(http.StatusUnauthorized, "GET", path, nil)
	f.clients["ada"].expect(http.StatusForbidden, "GET", path, nil)
	admin.expect(http.StatusBadRequest, "GET", path+"?sort=password", nil)

	for _, q := range []string{"", "sort=name&order=asc", "sort=normalized_score&order=desc", "sort=reviews&order=asc&status=submitted", "q=ADA"} {
		r := admin.expect(http.StatusOK, "GET", path+"?"+q, nil)
		if ct := r.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
			t.Fatalf("%q: Content-Type %q", q, ct)
		}
		recs, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
		if err != nil {
			t.Fatalf("%q: %v\n%s", q, err, r.Body)
		}
		want := "id,name,email,university,gender,reviews,date,status,decision,rsvp,score,normalized_score"
		if len(recs) == 0 || strings.Join(recs[0], ",") != want {
			t.Fatalf("%q: header %v", q, recs)
		}
		var page struct {
			Applications []map[string]any `json:"applications"`
			Total        int              `json:"total"`
		}
		admin.expect(http.StatusOK, "GET", "/api/admin/applications?page_size=50&"+q, nil).JSON(t, &page)
		if len(recs)-1 != page.Total || len(page.Applications) != page.Total || page.Total == 0 {
			t.Fatalf("%q: %d rows exported, the table has %d (%d on its page)", q, len(recs)-1, page.Total, len(page.Applications))
		}
		cell := func(v any) string {
			switch v := v.(type) {
			case nil:
				return ""
			case float64:
				return v2s(v)
			default:
				return fmt.Sprint(v)
			}
		}
		for i, row := range page.Applications {
			got := recs[i+1]
			date, _ := time.Parse(time.RFC3339Nano, row["date"].(string))
			exp := []string{cell(row["id"]), cell(row["name"]), cell(row["email"]), cell(row["university"]), cell(row["gender"]),
				cell(row["reviews"]), date.UTC().Format(time.RFC3339), cell(row["status"]), cell(row["decision"]), cell(row["rsvp"]),
				exportScore(row["score"]), exportScore(row["normalized_score"])}
			if strings.Join(got, "|") != strings.Join(exp, "|") {
				t.Errorf("%q row %d:\n got %v\nwant %v", q, i, got, exp)
			}
		}
	}
}

func v2s(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// exportScore is a score cell as the export writes it: four decimals, empty for null.
func exportScore(v any) string {
	f, ok := v.(float64)
	if !ok {
		return ""
	}
	return strconv.FormatFloat(f, 'f', 4, 64)
}
