package main

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2/client"
	"github.com/google/uuid"
)

// reviewer is a seeded admin with a session.
type reviewer struct {
	ID    uuid.UUID
	Email string
	Token string
}

// seedReviewers seeds applications and reviewers with `hackdesk seed` and
// opens a session for each reviewer.
func seedReviewers(ctx context.Context, e *Env, apps, n int) ([]reviewer, error) {
	if err := e.Seed(ctx, apps, n, e.Name); err != nil {
		return nil, err
	}
	rows, err := e.Store.Pool().Query(ctx, `SELECT id, email FROM profiles WHERE role = 'admin' ORDER BY email`)
	if err != nil {
		return nil, err
	}
	var out []reviewer
	for rows.Next() {
		var r reviewer
		if err := rows.Scan(&r.ID, &r.Email); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, r)
	}
	rows.Close()
	if len(out) != n {
		return nil, fmt.Errorf("seeded %d reviewers, want %d", len(out), n)
	}
	for i := range out {
		if out[i].Token, err = e.Session(ctx, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// reviewRun is what a review load saw.
type reviewRun struct {
	mu sync.Mutex
	// submitted are the reviews the API answered 200 for.
	submitted []uuid.UUID
	// conflicts are submits answered 409 (the queue served an application
	// the reviewer had reviewed); empties are GET random answered 404.
	conflicts, empties int
}

// reviewLoad runs every reviewer in a loop of GET random → POST submit
// until d has passed, spreading the requests over apis (request k of a
// reviewer goes to apis[(i+k) % len]). Every answer is counted in t.
func reviewLoad(ctx context.Context, apis []string, rs []reviewer, d time.Duration, t *Tally) *reviewRun {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	run := &reviewRun{}
	var wg sync.WaitGroup
	for i, rv := range rs {
		wg.Add(1)
		go func(i int, rv reviewer) {
			defer wg.Done()
			for k := i; ctx.Err() == nil; k++ {
				c := Client{Base: apis[k%len(apis)], Token: rv.Token}
				r, err := c.Do(ctx, http.MethodGet, "/api/applications/random", nil)
				if ctx.Err() != nil {
					return
				}
				t.Add(r.Status, err)
				if err != nil || r.Status != http.StatusOK {
					if r.Status == http.StatusNotFound {
						run.mu.Lock()
						run.empties++
						run.mu.Unlock()
					}
					time.Sleep(50 * time.Millisecond)
					continue
				}
				var next struct {
					Application struct {
						ID uuid.UUID `json:"id"`
					} `json:"application"`
				}
				if r.JSON(&next) != nil {
					continue
				}
				c.Base = apis[(k+1)%len(apis)]
				r, err = c.Do(context.WithoutCancel(ctx), http.MethodPost, "/api/review/submit", map[string]any{
					"application_id": next.Application.ID, "resume_score": 2, "links_score": 1, "q1_score": 5, "q2_score": 2,
				})
				t.Add(r.Status, err)
				var out struct {
					Review struct {
						ID uuid.UUID `json:"id"`
					} `json:"review"`
				}
				run.mu.Lock()
				switch {
				case err == nil && r.Status == http.StatusOK && r.JSON(&out) == nil:
					run.submitted = append(run.submitted, out.Review.ID)
				case err == nil && r.Status == http.StatusConflict:
					run.conflicts++
				}
				run.mu.Unlock()
			}
		}(i, rv)
	}
	wg.Wait()
	return run
}

// reviewState checks the review tables against their counters.
type reviewState struct {
	Reviews, Dupes, BadApps, BadStats, Missing int
}

func checkReviews(ctx context.Context, e *Env, submitted []uuid.UUID) (reviewState, error) {
	var st reviewState
	err := e.Store.Pool().QueryRow(ctx, `
		SELECT (SELECT count(*) FROM reviews),
		       (SELECT count(*) FROM reviews) - (SELECT count(*) FROM (SELECT DISTINCT application_id, reviewer_id FROM reviews) d),
		       (SELECT count(*) FROM applications a LEFT JOIN (SELECT application_id, count(*) n FROM reviews GROUP BY 1) c
		          ON c.application_id = a.id WHERE a.review_count <> coalesce(c.n, 0)),
		       (SELECT count(*) FROM reviewer_stats s FULL JOIN
		          (SELECT reviewer_id, count(*) n, sum(resume_score) r, sum(links_score) l, sum(q1_score) q1, sum(q2_score) q2
		             FROM reviews GROUP BY 1) c ON c.reviewer_id = s.reviewer_id
		          WHERE coalesce(s.review_count, 0) <> coalesce(c.n, 0) OR coalesce(s.resume_sum, 0) <> coalesce(c.r, 0)
		             OR coalesce(s.links_sum, 0) <> coalesce(c.l, 0) OR coalesce(s.q1_sum, 0) <> coalesce(c.q1, 0)
		             OR coalesce(s.q2_sum, 0) <> coalesce(c.q2, 0)),
		       (SELECT count(*) FROM unnest($1::uuid[]) id WHERE NOT EXISTS (SELECT 1 FROM reviews r WHERE r.id = id))`,
		submitted).Scan(&st.Reviews, &st.Dupes, &st.BadApps, &st.BadStats, &st.Missing)
	return st, err
}

// reviewChecks records the checks every review scenario makes.
func reviewChecks(ctx context.Context, e *Env, r *Result, run *reviewRun) error {
	st, err := checkReviews(ctx, e, run.submitted)
	if err != nil {
		return err
	}
	r.Check(len(run.submitted) > 0, "reviews submitted", "%d answered 200, %d rows", len(run.submitted), st.Reviews)
	r.Check(st.Missing == 0, "every 200 has its row", "%d answered reviews missing; %d more rows committed though their answer "+
		"was lost with the connection", st.Missing, st.Reviews-len(run.submitted))
	r.Check(st.Dupes == 0 && run.conflicts == 0, "no application reviewed twice by one reviewer",
		"%d duplicate rows, %d submits answered 409", st.Dupes, run.conflicts)
	r.Check(st.BadApps == 0 && st.BadStats == 0, "counters equal rows",
		"%d applications and %d reviewer totals off", st.BadApps, st.BadStats)
	return nil
}

// scenarioLatency: 50 ms more on every answer from PostgreSQL to the API
// while six reviewers loop through the queue.
func scenarioLatency(ctx context.Context, s *Suite, r *Result) error {
	e, err := s.NewEnv(ctx, "latency")
	if err != nil {
		return err
	}
	defer e.Close()
	rs, err := seedReviewers(ctx, e, 300, 6)
	if err != nil {
		return err
	}
	api, err := e.StartAPI(ctx)
	if err != nil {
		return err
	}
	r.Injected = "toxiproxy `latency` 50 ms (±10) on PostgreSQL → API, 12 s of 6 reviewers looping random → submit"
	p, err := s.Proxy(pgAPI)
	if err != nil {
		return err
	}
	if _, err := p.AddToxic("latency", "latency", "downstream", 1, toxiproxy.Attributes{"latency": 50, "jitter": 10}); err != nil {
		return err
	}
	e.Step("review load with the latency")
	start := time.Now()
	run := reviewLoad(ctx, []string{api.URL}, rs, 12*time.Second, r.Answers)
	took := time.Since(start)
	if err := p.RemoveToxic("latency"); err != nil {
		return err
	}
	r.Check(r.Answers.Others(is2xx) == 0, "every answer 2xx", "%d of %d not 2xx", r.Answers.Others(is2xx), r.Answers.Total())
	perCycle := took / time.Duration(max(1, len(run.submitted)/len(rs)))
	r.Check(perCycle >= 100*time.Millisecond, "the latency was felt", "%s per reviewer cycle", perCycle.Round(time.Millisecond))
	return reviewChecks(ctx, e, r, run)
}

// scenarioResets: while six reviewers loop through the queue, the API's
// connections to PostgreSQL are reset (toxiproxy reset_peer) or the proxy
// is disabled for half a second, in turns, every 1.5 s.
func scenarioResets(ctx context.Context, s *Suite, r *Result) error {
	e, err := s.NewEnv(ctx, "resets")
	if err != nil {
		return err
	}
	defer e.Close()
	rs, err := seedReviewers(ctx, e, 1200, 6)
	if err != nil {
		return err
	}
	api, err := e.StartAPI(ctx)
	if err != nil {
		return err
	}
	const runFor = 15 * time.Second
	faults := 0
	done := make(chan error, 1)
	go func() {
		done <- func() error {
			deadline := time.Now().Add(runFor - time.Second)
			for i := 0; time.Now().Before(deadline); i++ {
				time.Sleep(time.Second)
				if i%2 == 0 {
					// Connections carrying data are reset 5 ms in, mid-statement or mid-transaction.
					if err := s.Toxic(pgAPI, "reset", "reset_peer", toxiproxy.Attributes{"timeout": 5}); err != nil {
						return err
					}
					time.Sleep(400 * time.Millisecond)
					if err := s.Untoxic(pgAPI, "reset"); err != nil {
						return err
					}
				} else {
					if err := s.SetEnabled(false, pgAPI); err != nil {
						return err
					}
					time.Sleep(500 * time.Millisecond)
					if err := s.SetEnabled(true, pgAPI); err != nil {
						return err
					}
				}
				faults++
			}
			return nil
		}()
	}()
	e.Step("review load with the resets")
	run := reviewLoad(ctx, []string{api.URL}, rs, runFor, r.Answers)
	if err := <-done; err != nil {
		return err
	}
	r.Injected = fmt.Sprintf("%d faults in 15 s of 6 reviewers' load, in turns: toxiproxy `reset_peer` (5 ms) on the API's PostgreSQL connections for 0.4 s, the proxy disabled for 0.5 s", faults)
	r.Check(r.Answers.Others(is2xxOr5xx) == 0, "every answer 2xx or 5xx", "%d of %d otherwise", r.Answers.Others(is2xxOr5xx), r.Answers.Total())
	r.Check(r.Answers.Count(func(s int) bool { return s >= 500 }) > 0, "the faults reached clients", "%d answers 5xx",
		r.Answers.Count(func(s int) bool { return s >= 500 }))
	// The API recovers: a request after the faults succeeds.
	c := Client{Base: api.URL, Token: rs[0].Token}
	after, err := c.Do(ctx, http.MethodGet, "/api/applications/random", nil)
	r.Check(err == nil && after.Status == http.StatusOK, "served again after the faults", "GET random = %d%s", after.Status, errNote(err))
	return reviewChecks(ctx, e, r, run)
}
