package review

import (
	"context"
	"time"

	"hackdesk/db"
	"hackdesk/internal/feature/checkin"
	"hackdesk/internal/feature/hackathon"
	"hackdesk/internal/platform/apperr"
)

// Interval reads the dashboard's ?interval=: the hours of a timeline
// bucket, 1 (hourly) or 24 (daily).
func Interval(v string) (int32, error) {
	switch v {
	case "1":
		return 1, nil
	case "24":
		return 24, nil
	}
	return 0, apperr.ValidationFailed(apperr.Fields{"interval": "must be 1 (hourly) or 24 (daily)"})
}

// DashboardCounts are the headline numbers of the admissions funnel.
type DashboardCounts struct {
	Applications int64 `json:"applications"`
	Offers       int64 `json:"offers"`
	Rsvps        int64 `json:"rsvps"`
	Declined     int64 `json:"declined"`
	CheckedIn    int64 `json:"checked_in"`
}

// DashboardConversion are the funnel's ratios (four decimals).
type DashboardConversion struct {
	ApplicationToOffer float64 `json:"application_to_offer"`
	OfferToRsvp        float64 `json:"offer_to_rsvp"`
}

// DashboardBreakdown puts every application in exactly one state.
type DashboardBreakdown struct {
	Draft     int64 `json:"draft"`
	Submitted int64 `json:"submitted"` // no decision yet
	Offer     int64 `json:"offer"`     // offered, no answer, deadline ahead
	Waitlist  int64 `json:"waitlist"`
	Reject    int64 `json:"reject"`
	Attending int64 `json:"attending"`
	Declined  int64 `json:"declined"`
	Expired   int64 `json:"expired"`
}

// DashboardBucket is the number of attending RSVPs in one hour or day.
type DashboardBucket struct {
	Bucket string `json:"bucket"` // RFC 3339, UTC, start of the hour or day
	Count  int64  `json:"count"`
}

// Dashboard is GET /api/admin/dashboard's answer, about one edition.
type Dashboard struct {
	Hackathon       hackathon.Ref       `json:"hackathon"`
	Capacity        hackathon.Capacity  `json:"capacity"`
	Counts          DashboardCounts     `json:"counts"`
	Conversion      DashboardConversion `json:"conversion"`
	StatusBreakdown DashboardBreakdown  `json:"status_breakdown"`
	RsvpTimeline    []DashboardBucket   `json:"rsvp_timeline"`
	// The caterer's and the swag's counts among the attending and among
	// those checked in.
	Catering          checkin.Catering `json:"catering"`
	CateringCheckedIn checkin.Catering `json:"catering_checked_in"`
}

// dashboardOf shapes the counts and the timeline.
func dashboardOf(c db.DashboardCountsRow, rows []db.DashboardRsvpTimelineRow) Dashboard {
	out := Dashboard{
		Counts: DashboardCounts{Applications: c.Applications, Offers: c.Offers, Rsvps: c.Attending, Declined: c.Declined},
		Conversion: DashboardConversion{
			ApplicationToOffer: Ratio(c.Offers, c.Applications, 4),
			OfferToRsvp:        Ratio(c.Attending, c.Offers, 4),
		},
		StatusBreakdown: DashboardBreakdown{
			Draft: c.Draft, Submitted: c.Undecided, Offer: c.OfferOpen, Waitlist: c.Waitlist, Reject: c.Reject,
			Attending: c.Attending, Declined: c.Declined, Expired: c.Expired,
		},
		RsvpTimeline: make([]DashboardBucket, 0, len(rows)),
	}
	for _, row := range rows {
		out.RsvpTimeline = append(out.RsvpTimeline, DashboardBucket{Bucket: row.Bucket.UTC().Format(time.RFC3339), Count: row.Count})
	}
	return out
}

// LoadDashboard reads the counts, the capacity and the timeline of
// hours-long buckets of edition h. Run it in a read-only snapshot
// (db.Store.InSnapshot) so they agree.
func LoadDashboard(ctx context.Context, q *db.Queries, h db.Hackathon, hours int32) (Dashboard, error) {
	c, err := q.DashboardCounts(ctx, h.ID)
	if err != nil {
		return Dashboard{}, err
	}
	rows, err := q.DashboardRsvpTimeline(ctx, db.DashboardRsvpTimelineParams{HackathonID: h.ID, Hours: hours})
	if err != nil {
		return Dashboard{}, err
	}
	out := dashboardOf(c, rows)
	cat, err := checkin.LoadCounts(ctx, q, h.ID)
	if err != nil {
		return Dashboard{}, err
	}
	out.Counts.CheckedIn, out.Catering, out.CateringCheckedIn = cat.CheckedIn, cat.Catering, cat.CateringCheckedIn
	out.Hackathon = hackathon.RefOf(h)
	out.Capacity = hackathon.Capacity{Limit: h.Capacity, Attending: c.Attending, OpenOffers: c.OfferOpen}
	return out, nil
}
