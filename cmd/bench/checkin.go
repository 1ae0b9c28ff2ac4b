package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"hackdesk/internal/feature/checkin"
)

// checkinAttending is how many of the seeded edition's applications the
// door phase marks attending: the HTTP side checks in from the first of
// them, pgbench draws from the rest.
const checkinAttending = 60_000

// checkinDoors is the event day's door at 32 phones over HTTP against
// pgbench running the same statements: each door scans a signed ticket
// (GET /api/checkin/{id}?sig=, the look-up) and checks the person in
// (POST /api/checkin/{id} with the signature), one attendee after another
// and never the same one twice; pgbench runs the look-up statement and
// the check-in transaction (the edition, the locked application, the
// update and its event) on attendees of its own. As for review submit,
// the halves run HTTP, pgbench, pgbench, HTTP.
func (b *bench) checkinDoors(ctx context.Context) (ratio, p99 float64, err error) {
	pool := b.a.Store.Pool()
	say("check-in: %d applications attending...", checkinAttending)
	if _, err := pool.Exec(ctx, fmt.Sprintf(`DROP TABLE IF EXISTS bench_checkins;
		CREATE TABLE bench_checkins AS
		  SELECT row_number() OVER (ORDER BY id)::int AS n, id FROM applications
		  WHERE hackathon_id = hackathon_current_id() AND status = 'submitted' ORDER BY id LIMIT %d;
		ALTER TABLE bench_checkins ADD PRIMARY KEY (n);
		UPDATE applications a SET decision = 'offer', decided_at = now(), rsvp_deadline = now() + interval '7 days',
		    rsvp = 'attending', rsvp_at = now(), checked_in_at = NULL, checked_in_by = NULL, checkin_client_id = NULL
		FROM bench_checkins c WHERE a.id = c.id;
		ANALYZE bench_checkins, applications`, checkinAttending)); err != nil {
		return 0, 0, err
	}
	var ids []uuid.UUID
	rows, err := pool.Query(ctx, `SELECT id FROM bench_checkins ORDER BY n`)
	if err != nil {
		return 0, 0, err
	}
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return 0, 0, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	// The HTTP side takes attendees from the front, pgbench from the back
	// half: neither meets a ticket the other has used.
	httpIDs, pgFrom := ids[:len(ids)/2], len(ids)/2+1
	key, err := b.cfg.SigningKeyBytes()
	if err != nil {
		return 0, 0, err
	}
	signer := checkin.Signer(key)
	tokens := make([]string, clients)
	for i := range tokens {
		if tokens[i], err = b.session(ctx, b.reviewers[3*clients+i]); err != nil {
			return 0, 0, err
		}
	}
	actor := b.reviewers[3*clients]
	script, err := b.checkinScript(pgFrom, len(ids), actor)
	if err != nil {
		return 0, 0, err
	}

	var (
		next             atomic.Int64
		lookLat, postLat []time.Duration
		doorLat          []time.Duration
		errs             int64
		took             time.Duration
		pgTx             float64
		mu               sync.Mutex
	)
	half := runFor / 2
	doors := func() error {
		say("check-in over HTTP: %d doors scanning and checking in for %s...", clients, half)
		l, e, t := loop(ctx, clients, half, func(ctx context.Context, w int) error {
			i := next.Add(1) - 1
			if i >= int64(len(httpIDs)) {
				return fmt.Errorf("the door ran out of attendees")
			}
			id := httpIDs[i].String()
			sig := signer.Sign(id)
			t0 := time.Now()
			status, err := b.do(ctx, http.MethodGet, tokens[w], "/api/checkin/"+id+"?sig="+sig, nil, nil)
			if err != nil {
				return err
			}
			if status != http.StatusOK {
				return fmt.Errorf("look-up: %d", status)
			}
			t1 := time.Now()
			status, err = b.do(ctx, http.MethodPost, tokens[w], "/api/checkin/"+id, map[string]any{"sig": sig}, nil)
			if err != nil {
				return err
			}
			if status != http.StatusOK {
				return fmt.Errorf("check-in: %d", status)
			}
			t2 := time.Now()
			mu.Lock()
			lookLat, postLat = append(lookLat, t1.Sub(t0)), append(postLat, t2.Sub(t1))
			mu.Unlock()
			return nil
		})
		doorLat, errs, took = append(doorLat, l...), errs+e, took+t
		return nil
	}
	pgbench := func() error {
		say("pgbench: the check-in's look-up and transaction, %d clients for %s...", clients, half)
		tps, err := b.runPgbenchFor(ctx, "checkin", script, half)
		pgTx += tps * half.Seconds()
		return err
	}
	for _, step := range []func() error{doors, pgbench, pgbench, doors} {
		if err := step(); err != nil {
			return 0, 0, err
		}
	}
	var checkedIn int64
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM applications a JOIN bench_checkins c ON c.id = a.id
		WHERE c.n <= $1 AND a.checked_in_at IS NOT NULL`, len(httpIDs)).Scan(&checkedIn); err != nil {
		return 0, 0, err
	}
	doorRate := float64(len(doorLat)) / took.Seconds()
	pgTPS := pgTx / (2 * half.Seconds())
	ratio = doorRate / pgTPS
	all := append(append([]time.Duration(nil), lookLat...), postLat...)
	p99 = ms(percentile(all, 0.99))
	b.add("check-in over HTTP: attendees/s (32 doors, a signed look-up and a check-in each, 20 s)",
		fmt.Sprintf("%.0f (%.0f requests/s)", doorRate, 2*doorRate))
	b.add("check-in over HTTP: look-up p50 / p99; check-in p50 / p99; both p99", fmt.Sprintf("%.1f / %.1f ms; %.1f / %.1f ms; %.1f ms",
		ms(percentile(lookLat, 0.5)), ms(percentile(lookLat, 0.99)), ms(percentile(postLat, 0.5)), ms(percentile(postLat, 0.99)), p99))
	b.add("check-in over HTTP: errors; rows checked in (check-ins timed: a call cut off by a phase's end lands untimed)",
		fmt.Sprintf("%d; %d (%d)", errs, checkedIn, len(doorLat)))
	b.add("pgbench, check-in look-up + transaction: transactions/s (32 clients)", fmt.Sprintf("%.0f", pgTPS))
	b.add("check-in over HTTP vs pgbench (same statements)", fmt.Sprintf("%.2f", ratio))
	return ratio, p99, nil
}

// checkinScript is a pgbench script running, as written in db/queries, the
// door's look-up (CheckinPerson) and its check-in transaction
// (HackathonCurrent, CheckinLock, CheckinSet, ApplicationEventInsert) on a
// random attendee numbered from..to of bench_checkins.
func (b *bench) checkinScript(from, to int, actor uuid.UUID) (string, error) {
	type part struct{ file, name string }
	parts := []part{{"checkins.sql", "CheckinPerson"}, {"hackathons.sql", "HackathonCurrent"}, {"checkins.sql", "CheckinLock"},
		{"checkins.sql", "CheckinSet"}, {"application_events.sql", "ApplicationEventInsert"}}
	texts := make([]string, len(parts))
	for i, p := range parts {
		sql, err := b.queryText(p.file, p.name)
		if err != nil {
			return "", err
		}
		texts[i] = sql
	}
	who := "(SELECT id FROM bench_checkins WHERE n = :n)"
	r := strings.NewReplacer(
		"@id", who, "@application_id", who,
		"@checked_in_by", "'"+actor.String()+"'::uuid", "@client_id", "NULL::uuid",
		"sqlc.narg(actor_id)", "'"+actor.String()+"'", "@kind", "'checkin'",
		// The event's detail as the handler writes it, built in SQL: pgbench
		// would read ":null" in a JSON literal as a variable.
		"@detail", "jsonb_build_object('client_id', NULL, 'walk_in', false)::text",
	)
	var sb strings.Builder
	fmt.Fprintf(&sb, "\\set n random(%d, %d)\n%s;\nBEGIN;\n", from, to, r.Replace(texts[0]))
	for _, t := range texts[1:] {
		sb.WriteString(r.Replace(t) + ";\n")
	}
	sb.WriteString("COMMIT;\n")
	if s := sb.String(); unfilled.MatchString(s) {
		return "", fmt.Errorf("the check-in statements have a parameter the bench does not fill:\n%s", s)
	}
	return sb.String(), nil
}
