package db

import "context"

// AdminApplicationEach runs AdminApplicationList's statement over every
// matching row (PageOffset and PageLimit are ignored) and hands fn each row
// as it is read from the connection, so that an export of the whole
// edition holds one row at a time. It stops at fn's first error. sqlc's
// generated :many reads the whole result into a slice; this is the one
// hand-written reader of a generated statement.
func (q *Queries) AdminApplicationEach(ctx context.Context, arg AdminApplicationListParams, fn func(AdminApplicationListRow) error) error {
	rows, err := q.db.Query(ctx, adminApplicationList,
		arg.ActorID,
		arg.HackathonID,
		arg.ActorEmail,
		arg.Status,
		arg.Decision,
		arg.Rsvp,
		arg.Pattern,
		arg.Sort,
		arg.OrderDir,
		int32(0),
		int32(1<<31-1),
	)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var i AdminApplicationListRow
		if err := rows.Scan(
			&i.ID,
			&i.Name,
			&i.Email,
			&i.University,
			&i.Gender,
			&i.ReviewCount,
			&i.Status,
			&i.Decision,
			&i.Rsvp,
			&i.CreatedAt,
			&i.SubmittedAt,
			&i.Score,
			&i.NormalizedScore,
		); err != nil {
			return err
		}
		if err := fn(i); err != nil {
			return err
		}
	}
	return rows.Err()
}
