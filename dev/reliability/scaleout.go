package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
)

// scenarioScaleOut runs two API processes and two workers on one database
// and one Temporal server: the login and sign-up limits hold across the
// APIs, the outbox dispatches each row once, and the review queue keeps
// its rule with reviewers spread over both APIs.
func scenarioScaleOut(ctx context.Context, s *Suite, r *Result) error {
	e, err := s.NewEnv(ctx, "scaleout")
	if err != nil {
		return err
	}
	defer e.Close()
	var apis []string
	for i := 0; i < 2; i++ {
		p, err := e.StartAPI(ctx)
		if err != nil {
			return err
		}
		apis = append(apis, p.URL)
		if _, err := e.StartWorker(ctx); err != nil {
			return err
		}
	}
	rs, err := seedReviewers(ctx, e, 1500, 6)
	if err != nil {
		return err
	}
	r.Injected = "2 `hackdesk serve` + 2 `hackdesk worker` on one database and Temporal; 36 logins and 14 sign-ups from one client " +
		"address alternating over the APIs; 40 offer decisions from 8 clients over both; 6 reviewers for 10 s, each alternating APIs"

	// The limits are per fixed window plus a weighted previous window;
	// start both bursts well inside one window, so a single process's
	// answer is exact: 30 logins a minute, 10 sign-ups an hour.
	now := time.Now()
	switch {
	case now.Minute() == 59:
		time.Sleep(now.Truncate(time.Hour).Add(time.Hour + time.Second).Sub(now))
	case now.Second() >= 50:
		time.Sleep(now.Truncate(time.Minute).Add(time.Minute + time.Second).Sub(now))
	}
	e.Step("rate limits")
	login := burst(ctx, apis, 36, 4, func(ctx context.Context, c Client, i int) (Resp, error) {
		return c.Do(ctx, http.MethodPost, "/api/auth/login",
			map[string]string{"email": fmt.Sprintf("nobody-%d@example.com", i), "password": "not the password"})
	}, "198.51.100.10")
	r.Check(login.n[http.StatusUnauthorized] == 30 && login.n[http.StatusTooManyRequests] == 6 && login.retryAfter == 6,
		"login limit (30/min per IP) held across the APIs", "401×%d, 429×%d (%d with Retry-After), other %d",
		login.n[http.StatusUnauthorized], login.n[http.StatusTooManyRequests], login.retryAfter, login.others(401, 429))
	sign := burst(ctx, apis, 14, 4, func(ctx context.Context, c Client, i int) (Resp, error) {
		return c.Do(ctx, http.MethodPost, "/api/auth/signup", map[string]string{
			"email": fmt.Sprintf("scale-%d-%s@example.com", i, randomHex(2)), "password": "correct horse battery staple", "display_name": "S"})
	}, "198.51.100.11")
	r.Check(sign.n[http.StatusCreated] == 10 && sign.n[http.StatusTooManyRequests] == 4 && sign.retryAfter == 4,
		"sign-up limit (10/h per IP) held across the APIs", "201×%d, 429×%d (%d with Retry-After), other %d",
		sign.n[http.StatusCreated], sign.n[http.StatusTooManyRequests], sign.retryAfter, sign.others(201, 429))

	e.Step("offers")
	// Offers, each its own batch and RsvpDeadline workflow, from both APIs.
	rows, err := e.Store.Pool().Query(ctx, `SELECT id FROM applications WHERE status = 'submitted' ORDER BY id LIMIT 40`)
	if err != nil {
		return err
	}
	var apps []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		apps = append(apps, id)
	}
	rows.Close()
	offers := burst(ctx, apis, len(apps), 8, func(ctx context.Context, c Client, i int) (Resp, error) {
		c.Token = rs[i%len(rs)].Token
		_, resp, err := offer(ctx, c, apps[i:i+1], time.Now().Add(24*time.Hour))
		return resp, err
	}, "")
	r.Check(offers.n[http.StatusOK] == len(apps), "offers answered 200", "200×%d of %d", offers.n[http.StatusOK], len(apps))

	e.Step("review load")
	run := reviewLoad(ctx, apis, rs, 10*time.Second, r.Answers)
	r.Check(r.Answers.Others(is2xx) == 0, "every review answer 2xx", "%d of %d not", r.Answers.Others(is2xx), r.Answers.Total())
	if err := reviewChecks(ctx, e, r, run); err != nil {
		return err
	}
	// With the load over, each reviewer asks each API for its next
	// application: both must serve what the rule picks, computed here from
	// the review rows (not the counters).
	agree := 0
	for _, rv := range rs {
		want, err := nextByRule(ctx, e, rv)
		if err != nil {
			return err
		}
		same := 0
		for _, base := range apis {
			resp, err := Client{Base: base, Token: rv.Token}.Do(ctx, http.MethodGet, "/api/applications/random", nil)
			var got struct {
				Application struct {
					ID uuid.UUID `json:"id"`
				} `json:"application"`
			}
			if err == nil && resp.Status == http.StatusOK && resp.JSON(&got) == nil && got.Application.ID == want {
				same++
			}
		}
		if same == len(apis) {
			agree++
		}
	}
	r.Check(agree == len(rs), "both APIs serve the assignment rule's pick", "%d of %d reviewers", agree, len(rs))

	e.Step("waiting for the outbox and the emails")
	if err := e.WaitStarted(ctx, time.Minute); err != nil {
		return err
	}
	starts, err := e.WorkflowStarts(ctx)
	if err != nil {
		return err
	}
	if err := e.WaitEmails(ctx, len(apps)+10, 90*time.Second); err != nil {
		return err
	}
	ids, err := e.WorkflowIDs(ctx)
	if err != nil {
		return err
	}
	runs, err := s.Runs(ctx, e, len(ids))
	if err != nil {
		return err
	}
	once := 0
	for _, w := range starts {
		if runs[w.ID] == 1 && w.Attempts == 1 {
			once++
		}
	}
	r.Check(once == len(starts), "the outbox dispatched each row once", "%d of %d rows dispatched on their first attempt to exactly one run",
		once, len(starts))
	mails, err := e.Emails(ctx)
	if err != nil {
		return err
	}
	r.Check(mails.Rows == len(apps)+10 && mails.OK(), "each email sent once by the two workers", "%s", mails)
	return nil
}

// nextByRule is the application the assignment rule (docs/design.md)
// gives a reviewer: submitted, not their own, not one listing them on its
// team, not reviewed by them; fewest reviews, then smallest id.
func nextByRule(ctx context.Context, e *Env, rv reviewer) (uuid.UUID, error) {
	var id uuid.UUID
	err := e.Store.Pool().QueryRow(ctx, `
		SELECT a.id FROM applications a
		WHERE a.status = 'submitted' AND a.profile_id <> $1 AND NOT team_lists_email(a.team_members, $2)
		  AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.application_id = a.id AND r.reviewer_id = $1)
		ORDER BY (SELECT count(*) FROM reviews r WHERE r.application_id = a.id), a.id
		LIMIT 1`, rv.ID, rv.Email).Scan(&id)
	return id, err
}

// burstResult counts a burst's answers.
type burstResult struct {
	n          map[int]int
	retryAfter int // 429s carrying Retry-After
}

func (b burstResult) others(statuses ...int) int {
	n := 0
	for s, c := range b.n {
		if !slices.Contains(statuses, s) {
			n += c
		}
	}
	return n
}

// burst sends n requests from `workers` goroutines, request i to
// apis[i % len], all as client address ip.
func burst(ctx context.Context, apis []string, n, workers int, do func(ctx context.Context, c Client, i int) (Resp, error), ip string) burstResult {
	res := burstResult{n: map[int]int{}}
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				resp, err := do(ctx, Client{Base: apis[i%len(apis)], IP: ip}, i)
				mu.Lock()
				if err != nil {
					res.n[0]++
				} else {
					res.n[resp.Status]++
					if resp.Status == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "" {
						res.retryAfter++
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	return res
}
