package api

import (
	"net/http"
	"time"

	"hackdesk/apperr"
	"hackdesk/db"
)

type dashboardCounts struct {
	Applications int64 `json:"applications"`
	Offers       int64 `json:"offers"`
	Rsvps        int64 `json:"rsvps"`
	Declined     int64 `json:"declined"`
}

type dashboardConversion struct {
	ApplicationToOffer float64 `json:"application_to_offer"`
	OfferToRsvp        float64 `json:"offer_to_rsvp"`
}

// dashboardBreakdown puts every application in exactly one state.
type dashboardBreakdown struct {
	Draft     int64 `json:"draft"`
	Submitted int64 `json:"submitted"` // no decision yet
	Offer     int64 `json:"offer"`     // offered, no answer, deadline ahead
	Waitlist  int64 `json:"waitlist"`
	Reject    int64 `json:"reject"`
	Attending int64 `json:"attending"`
	Declined  int64 `json:"declined"`
	Expired   int64 `json:"expired"`
}

type dashboardBucket struct {
	Bucket string `json:"bucket"` // RFC 3339, UTC, start of the hour or day
	Count  int64  `json:"count"`
}

type dashboardJSON struct {
	Counts          dashboardCounts     `json:"counts"`
	Conversion      dashboardConversion `json:"conversion"`
	StatusBreakdown dashboardBreakdown  `json:"status_breakdown"`
	RsvpTimeline    []dashboardBucket   `json:"rsvp_timeline"`
}

// dashboard is GET /api/admin/dashboard?interval=1|24 (superadmin). The
// counts and the timeline are read in one read-only snapshot, so they agree.
func (s *Server) dashboard(w http.ResponseWriter, r *http.Request) error {
	var hours int32
	switch r.URL.Query().Get("interval") {
	case "1":
		hours = 1
	case "24":
		hours = 24
	default:
		return apperr.ValidationFailed(apperr.Fields{"interval": "must be 1 (hourly) or 24 (daily)"})
	}
	ctx := r.Context()
	var (
		c    db.DashboardCountsRow
		rows []db.DashboardRsvpTimelineRow
	)
	err := s.store.InSnapshot(ctx, func(q *db.Queries) (err error) {
		if c, err = q.DashboardCounts(ctx); err != nil {
			return err
		}
		rows, err = q.DashboardRsvpTimeline(ctx, hours)
		return err
	})
	if err != nil {
		return err
	}
	out := dashboardJSON{
		Counts: dashboardCounts{Applications: c.Applications, Offers: c.Offers, Rsvps: c.Attending, Declined: c.Declined},
		Conversion: dashboardConversion{
			ApplicationToOffer: ratio(c.Offers, c.Applications, 4),
			OfferToRsvp:        ratio(c.Attending, c.Offers, 4),
		},
		StatusBreakdown: dashboardBreakdown{
			Draft: c.Draft, Submitted: c.Undecided, Offer: c.OfferOpen, Waitlist: c.Waitlist, Reject: c.Reject,
			Attending: c.Attending, Declined: c.Declined, Expired: c.Expired,
		},
		RsvpTimeline: make([]dashboardBucket, 0, len(rows)),
	}
	for _, row := range rows {
		out.RsvpTimeline = append(out.RsvpTimeline, dashboardBucket{Bucket: row.Bucket.UTC().Format(time.RFC3339), Count: row.Count})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
