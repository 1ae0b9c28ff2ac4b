package review

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
)

func ptr[T any](v T) *T { return &v }

func TestRequestValidate(t *testing.T) {
	t.Parallel()
	ok := func() Request {
		return Request{ApplicationID: uuid.NewString(), ResumeScore: ptr[int32](3), LinksScore: ptr[int32](0),
			Q1Score: ptr[int32](7), Q2Score: ptr[int32](1)}
	}
	cases := []struct {
		name  string
		edit  func(*Request)
		field string // "" when valid
		why   string
	}{
		{"every score in range", func(*Request) {}, "", ""},
		{"not a UUID", func(r *Request) { r.ApplicationID = "nope" }, "application_id", "must be a UUID"},
		{"missing score", func(r *Request) { r.LinksScore = nil }, "links_score", "is required"},
		{"below 0", func(r *Request) { r.ResumeScore = ptr[int32](-1) }, "resume_score", "must be from 0 to 3"},
		{"above the resume maximum", func(r *Request) { r.ResumeScore = ptr[int32](4) }, "resume_score", "must be from 0 to 3"},
		{"above the links maximum", func(r *Request) { r.LinksScore = ptr[int32](3) }, "links_score", "must be from 0 to 2"},
		{"q1 at its maximum", func(r *Request) { r.Q1Score = ptr[int32](7) }, "", ""},
		{"above the q1 maximum", func(r *Request) { r.Q1Score = ptr[int32](8) }, "q1_score", "must be from 0 to 7"},
		{"above the q2 maximum", func(r *Request) { r.Q2Score = ptr[int32](4) }, "q2_score", "must be from 0 to 3"},
	}
	for _, c := range cases {
		r := ok()
		c.edit(&r)
		f := r.Validate()
		switch {
		case c.field == "" && len(f) != 0:
			t.Errorf("%s: refused %v", c.name, f)
		case c.field != "" && (len(f) != 1 || f[c.field] != c.why):
			t.Errorf("%s: fields %v, want %s: %s", c.name, f, c.field, c.why)
		}
	}
}

func TestCriteriaMatchRequest(t *testing.T) {
	t.Parallel()
	// Criteria are in the order of the request's score fields, whose
	// names they carry.
	want := []string{"resume_score", "links_score", "q1_score", "q2_score"}
	if len(Criteria) != len(want) {
		t.Fatalf("%d criteria, want %d", len(Criteria), len(want))
	}
	for i, c := range Criteria {
		if c.Name != want[i] || c.Max <= 0 {
			t.Errorf("criterion %d = %+v, want %s with a positive maximum", i, c, want[i])
		}
	}
}

func TestListQueryValidate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		in     ListQuery
		want   ListQuery
		fields map[string]string
	}{
		{"defaults", ListQuery{}, ListQuery{Sort: "created_at", Order: "desc"}, nil},
		{"every value", ListQuery{Q: "  Ada@X ", Status: "submitted", Sort: "reviews", Order: "asc"},
			ListQuery{Q: "ada@x", Status: "submitted", Sort: "reviews", Order: "asc"}, nil},
		{"unknown sort", ListQuery{Sort: "rank"}, ListQuery{Sort: "created_at", Order: "desc"},
			map[string]string{"sort": "must be one of created_at, name, email, university, gender, reviews, score, normalized_score"}},
		{"normalized score", ListQuery{Sort: "normalized_score", Order: "asc"}, ListQuery{Sort: "normalized_score", Order: "asc"}, nil},
		{"unknown order", ListQuery{Order: "up"}, ListQuery{Sort: "created_at", Order: "desc"},
			map[string]string{"order": "must be one of asc, desc"}},
		{"unknown status", ListQuery{Status: "accepted"}, ListQuery{Sort: "created_at", Order: "desc"},
			map[string]string{"status": "must be one of draft, submitted"}},
		{"decision and RSVP", ListQuery{Decision: "none", Rsvp: "pending"},
			ListQuery{Decision: "none", Rsvp: "pending", Sort: "created_at", Order: "desc"}, nil},
		{"unknown decision and RSVP", ListQuery{Decision: "accepted", Rsvp: "yes"}, ListQuery{Sort: "created_at", Order: "desc"},
			map[string]string{"decision": "must be one of offer, waitlist, reject, none", "rsvp": "must be one of attending, declined, expired, pending"}},
		{"search too long", ListQuery{Q: strings.Repeat("a", 101)},
			ListQuery{Q: strings.Repeat("a", 101), Sort: "created_at", Order: "desc"},
			map[string]string{"q": "must be at most 100 characters"}},
		{"search at the limit", ListQuery{Q: strings.Repeat("a", 100)},
			ListQuery{Q: strings.Repeat("a", 100), Sort: "created_at", Order: "desc"}, nil},
	}
	for _, c := range cases {
		lq := c.in
		f := lq.Validate()
		if lq != c.want {
			t.Errorf("%s: query %+v, want %+v", c.name, lq, c.want)
		}
		if len(f) != len(c.fields) {
			t.Errorf("%s: fields %v, want %v", c.name, f, c.fields)
		}
		for k, v := range c.fields {
			if f[k] != v {
				t.Errorf("%s: %s = %q, want %q", c.name, k, f[k], v)
			}
		}
	}
}

func TestListQueryParams(t *testing.T) {
	t.Parallel()
	if f := (ListQuery{}).params(); f != (filters{}) {
		t.Fatalf("empty query filters: %+v", f)
	}
	f := ListQuery{Q: `50%_a\b`, Status: "draft", Decision: "none", Rsvp: "pending"}.params()
	if f.status == nil || f.decision == nil || f.rsvp == nil || f.pattern == nil {
		t.Fatalf("filters %+v", f)
	}
	if *f.status != "draft" || *f.decision != "none" || *f.rsvp != "pending" || *f.pattern != `%50\%\_a\\b%` {
		t.Fatalf("filters %q %q %q %q", *f.status, *f.decision, *f.rsvp, *f.pattern)
	}
}

func TestRatio(t *testing.T) {
	t.Parallel()
	cases := []struct {
		num, den int64
		decimals int
		want     float64
	}{
		{0, 0, 2, 0},
		{5, 0, 2, 0},
		{10, 6, 2, 1.67},
		{23, 6, 2, 3.83},
		{6, 4, 2, 1.5},
		{1, 3, 4, 0.3333},
		{2, 3, 4, 0.6667},
		{3, 3, 2, 1},
	}
	for _, c := range cases {
		if got := Ratio(c.num, c.den, c.decimals); got != c.want {
			t.Errorf("Ratio(%d, %d, %d) = %v, want %v", c.num, c.den, c.decimals, got, c.want)
		}
	}
}

func TestStatisticsOf(t *testing.T) {
	t.Parallel()
	got := statisticsOf(db.ReviewStatisticsRow{TotalApplications: 4, TotalReviews: 6, TotalReviewers: 3,
		ResumeSum: 10, LinksSum: 6, Q1Sum: 23, Q2Sum: 10})
	want := Statistics{TotalApplications: 4, TotalReviews: 6, TotalReviewers: 3, AvgReviewsPerApplication: 1.5,
		AvgResumeScore: 1.67, AvgLinksScore: 1, AvgQ1Score: 3.83, AvgQ2Score: 1.67}
	if got != want {
		t.Fatalf("statistics %+v, want %+v", got, want)
	}
	if (statisticsOf(db.ReviewStatisticsRow{}) != Statistics{}) {
		t.Fatal("no reviews: averages are not 0")
	}
	if s := reviewerScoresOf(db.ReviewerStat{ReviewCount: 3, ResumeSum: 6, LinksSum: 3, Q1Sum: 16, Q2Sum: 6},
		db.ReviewerTotalsRow{MeanTotal: 31.0 / 3, StddevTotal: 1.247219}); s !=
		(ReviewerScores{TotalReviews: 3, AvgResumeScore: 2, AvgLinksScore: 1, AvgQ1Score: 5.33, AvgQ2Score: 2,
			MeanTotal: 10.33, StddevTotal: 1.25}) {
		t.Fatalf("reviewer scores %+v", s)
	}
}

func TestInterval(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]int32{"1": 1, "24": 24, "": 0, "2": 0, "01": 0, "hour": 0} {
		got, err := Interval(v)
		if got != want || (err == nil) != (want != 0) {
			t.Errorf("Interval(%q) = %d, %v; want %d", v, got, err, want)
		}
	}
}

func TestDashboardOf(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.FixedZone("NST", -(3*3600+1800)))
	d := dashboardOf(db.DashboardCountsRow{Applications: 8, Offers: 3, Attending: 2, Declined: 1, Draft: 2,
		Undecided: 3}, []db.DashboardRsvpTimelineRow{{Bucket: at, Count: 2}})
	if d.Conversion.ApplicationToOffer != 0.375 || d.Conversion.OfferToRsvp != 0.6667 {
		t.Errorf("conversion %+v", d.Conversion)
	}
	if d.Counts.Rsvps != 2 || d.StatusBreakdown.Submitted != 3 || d.StatusBreakdown.Draft != 2 {
		t.Errorf("counts %+v breakdown %+v", d.Counts, d.StatusBreakdown)
	}
	if len(d.RsvpTimeline) != 1 || d.RsvpTimeline[0].Bucket != "2026-03-01T12:30:00Z" {
		t.Errorf("timeline %+v, want the bucket in UTC", d.RsvpTimeline)
	}
	if empty := dashboardOf(db.DashboardCountsRow{}, nil); empty.RsvpTimeline == nil || empty.Conversion.OfferToRsvp != 0 {
		t.Errorf("empty dashboard %+v: the timeline must be [] and ratios 0", empty)
	}
}

func TestToAdminRowDate(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	submitted := created.Add(48 * time.Hour)
	if r := toAdminRow(db.AdminApplicationListRow{CreatedAt: created}); !r.Date.Equal(created) {
		t.Errorf("draft date %v, want created", r.Date)
	}
	if r := toAdminRow(db.AdminApplicationListRow{CreatedAt: created, SubmittedAt: &submitted}); !r.Date.Equal(submitted) {
		t.Errorf("submitted date %v, want submitted", r.Date)
	}
}
