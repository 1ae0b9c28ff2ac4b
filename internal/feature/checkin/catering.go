package checkin

import (
	"context"
	"sort"

	"github.com/google/uuid"

	"hackdesk/db"
)

// TopDiets is how many dietary restrictions the counts name; the rest
// are summed as "other".
const TopDiets = 10

// Other and NoSize are the catering counts' catch-alls: the dietary
// restrictions past the commonest TopDiets, and attendees without a size.
const (
	Other  = "other"
	NoSize = "not given"
)

// Catering are the caterer's and the swag's counts among a group of
// people: T-shirt sizes and dietary restrictions (normalized: trimmed and
// case-folded; none given is not counted).
type Catering struct {
	TshirtSizes map[string]int64 `json:"tshirt_sizes"`
	Dietary     map[string]int64 `json:"dietary"`
}

// Counts are an edition's catering counts among the attending and among
// those checked in.
type Counts struct {
	CheckedIn         int64    `json:"checked_in"`
	Catering          Catering `json:"catering"`
	CateringCheckedIn Catering `json:"catering_checked_in"`
}

type tally struct {
	value string
	n     int64
}

// LoadCounts reads edition id's catering counts.
func LoadCounts(ctx context.Context, q *db.Queries, id uuid.UUID) (Counts, error) {
	rows, err := q.CateringCounts(ctx, id)
	if err != nil {
		return Counts{}, err
	}
	c, err := q.CheckinAttending(ctx, id)
	if err != nil {
		return Counts{}, err
	}
	return countsOf(rows, c.CheckedIn), nil
}

// countsOf shapes the grouped rows: each size as it is (a missing one as
// NoSize); the commonest TopDiets restrictions among the attending by
// name (ties by name), the rest as Other, and the same names among those
// checked in.
func countsOf(rows []db.CateringCountsRow, checkedIn int64) Counts {
	out := Counts{CheckedIn: checkedIn,
		Catering:          Catering{TshirtSizes: map[string]int64{}, Dietary: map[string]int64{}},
		CateringCheckedIn: Catering{TshirtSizes: map[string]int64{}, Dietary: map[string]int64{}}}
	var diets []tally
	dietIn := map[string]int64{}
	for _, r := range rows {
		switch r.Kind {
		case "tshirt":
			v := r.Value
			if v == "" {
				v = NoSize
			}
			out.Catering.TshirtSizes[v] += r.Attending
			if r.CheckedIn > 0 {
				out.CateringCheckedIn.TshirtSizes[v] += r.CheckedIn
			}
		case "diet":
			if r.Value == "" {
				continue
			}
			diets = append(diets, tally{r.Value, r.Attending})
			dietIn[r.Value] = r.CheckedIn
		}
	}
	sort.Slice(diets, func(i, j int) bool {
		if diets[i].n != diets[j].n {
			return diets[i].n > diets[j].n
		}
		return diets[i].value < diets[j].value
	})
	for i, d := range diets {
		name := d.value
		if i >= TopDiets {
			name = Other
		}
		out.Catering.Dietary[name] += d.n
		if dietIn[d.value] > 0 {
			out.CateringCheckedIn.Dietary[name] += dietIn[d.value]
		}
	}
	return out
}
