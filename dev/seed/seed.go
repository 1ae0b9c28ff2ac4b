// Package seed fills a database with realistic demo and benchmark data:
// confirmed applicant accounts, each with a submitted application of the
// current hackathon edition, admin reviewers who can sign in, and their
// reviews.
//
// Everything is written with COPY inside one transaction, so a failed or
// cancelled run leaves nothing behind. Resume keys and names are filled in
// (`<profile_id>/<First>_<Last>_Resume.pdf`, type pdf) but no object is
// uploaded to the blob store: signed resume links of seeded applications
// lead to a missing object.
package seed

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"hackdesk/internal/feature/application"
	"hackdesk/internal/platform/auth"
	"hackdesk/internal/platform/resume"
)

// DefaultPassword is every seeded account's password unless Options.Password
// is set.
const DefaultPassword = "hackdesk-seed"

// EmailDomain is the domain of every seeded account's email. It is reserved
// (.test), so no email sent to a seeded account can reach anyone.
const EmailDomain = "seed.hackdesk.test"

// ErrInvalidOptions is returned (wrapped) for options Run refuses before
// writing anything.
var ErrInvalidOptions = errors.New("invalid seed options")

// Options say what to seed.
type Options struct {
	Applications int // applicant accounts, each with one submitted application
	Reviewers    int // admin accounts that review
	Reviews      int // distinct (application, reviewer) pairs; at most Applications*Reviewers
	// Seed makes the generated content reproducible: the same Seed gives the
	// same names, answers, timestamps relative to the start and scores.
	Seed int64
	// Hackathon is the edition the applications and reviews belong to; the
	// zero value is the current edition.
	Hackathon uuid.UUID
	// Password of every seeded account (applicants and reviewers); default
	// DefaultPassword.
	Password string
	// Prefix starts every seeded email (<prefix>.applicant<i>@EmailDomain)
	// so that runs into one database stay distinct. Default: derived from
	// Seed and the current time. Row IDs are derived from Seed and Prefix.
	Prefix string
}

// Result is what Run wrote.
type Result struct {
	Applications, Reviewers, Reviews int
	Took                             time.Duration
	ReviewerEmails                   []string
}

var prefixPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// Run seeds the database behind pool and reports progress bars to progress
// (which may be nil). It returns an error wrapping ErrInvalidOptions for
// negative counts, more reviews than Applications*Reviewers, a bad prefix or
// an unacceptable password; a unique violation when the prefix was used
// before in this database; and database errors. On any error nothing is
// written.
//
// The reviews table's counting trigger is disabled for the COPY (inside the
// transaction, which locks out concurrent review writes until commit) and
// applications.review_count and reviewer_stats are then brought up to date
// set-wise, adding to what is there.
func Run(ctx context.Context, pool *pgxpool.Pool, o Options, progress io.Writer) (Result, error) {
	start := time.Now()
	if progress == nil {
		progress = io.Discard
	}
	if o.Password == "" {
		o.Password = DefaultPassword
	}
	if o.Prefix == "" {
		o.Prefix = "s" + strings.ReplaceAll(strconv.FormatInt(o.Seed, 36), "-", "m") + "-" + strconv.FormatInt(start.UnixMilli(), 36)
	}
	if err := o.validate(); err != nil {
		return Result{}, err
	}
	// One hash for every account: argon2id costs ~50 ms on purpose.
	hash, err := auth.HashPassword(ctx, o.Password, auth.DefaultParams)
	if err != nil {
		return Result{}, err
	}
	p := newPlan(o, start.UTC().Truncate(time.Second))

	tx, err := pool.Begin(ctx)
	if err != nil {
		return Result{}, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after commit
	if p.o.Hackathon == uuid.Nil {
		if err := tx.QueryRow(ctx, `SELECT hackathon_current_id()`).Scan(&p.o.Hackathon); err != nil {
			return Result{}, fmt.Errorf("the current hackathon: %w", err)
		}
	}

	if err := copyRows(ctx, tx, progress, "profiles", profileColumns, o.Applications+o.Reviewers, p.profileRow(hash)); err != nil {
		return Result{}, err
	}
	if err := copyRows(ctx, tx, progress, "applications", applicationColumns, o.Applications, p.applicationRow()); err != nil {
		return Result{}, err
	}
	if o.Reviews > 0 {
		if err := p.copyReviews(ctx, tx, progress); err != nil {
			return Result{}, err
		}
	}
	// Fresh statistics, so the first queries after seeding plan well. In the
	// transaction, ANALYZE sees its rows, and a failure still undoes it all.
	if _, err := tx.Exec(ctx, "ANALYZE profiles, applications, reviews, reviewer_stats"); err != nil {
		return Result{}, err
	}
	if err := tx.Commit(ctx); err != nil {
		return Result{}, err
	}
	// Recomputing review_count rewrote every seeded application, leaving a
	// dead entry per row in applications_queue_idx that the review queue
	// would step over until autovacuum ran. Clean up now (VACUUM cannot run
	// in a transaction). It also sets the visibility map, so counts can use
	// index-only scans.
	if _, err := pool.Exec(ctx, "VACUUM (ANALYZE) applications, reviews, reviewer_stats"); err != nil {
		return Result{}, err
	}
	res := Result{
		Applications: o.Applications, Reviewers: o.Reviewers, Reviews: o.Reviews,
		Took: time.Since(start), ReviewerEmails: make([]string, o.Reviewers),
	}
	for i := range res.ReviewerEmails {
		res.ReviewerEmails[i] = p.reviewerEmail(i)
	}
	return res, nil
}

func (o Options) validate() error {
	switch {
	case o.Applications < 0 || o.Reviewers < 0 || o.Reviews < 0:
		return fmt.Errorf("%w: counts must not be negative", ErrInvalidOptions)
	case int64(o.Reviews) > int64(o.Applications)*int64(o.Reviewers):
		return fmt.Errorf("%w: %d reviews need at least that many distinct (application, reviewer) pairs; %d applications × %d reviewers give %d",
			ErrInvalidOptions, o.Reviews, o.Applications, o.Reviewers, int64(o.Applications)*int64(o.Reviewers))
	case !prefixPattern.MatchString(o.Prefix):
		return fmt.Errorf("%w: prefix %q must be 1 to 40 of a-z, 0-9, '-', '_'", ErrInvalidOptions, o.Prefix)
	}
	if why := auth.CheckPassword(o.Password); why != "" {
		return fmt.Errorf("%w: password %s", ErrInvalidOptions, why)
	}
	return nil
}

// copyReviews writes the reviews with the counting trigger (and the one
// that fills in a review's edition, which every row names) disabled and
// then applies what the trigger would have done, set-wise. ALTER TABLE ...
// DISABLE TRIGGER takes a SHARE ROW EXCLUSIVE lock on reviews until
// commit, so no other session can insert or delete a review while the
// triggers are off. Every review written here is by a reviewer created in
// this transaction, of the run's edition, so "reviews by these reviewers"
// is exactly this run's reviews.
func (p *plan) copyReviews(ctx context.Context, tx pgx.Tx, progress io.Writer) error {
	if _, err := tx.Exec(ctx, "ALTER TABLE reviews DISABLE TRIGGER reviews_keep_counts, DISABLE TRIGGER reviews_set_hackathon"); err != nil {
		return err
	}
	if err := copyRows(ctx, tx, progress, "reviews", reviewColumns, p.o.Reviews, p.reviewRow()); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "ALTER TABLE reviews ENABLE TRIGGER reviews_keep_counts, ENABLE TRIGGER reviews_set_hackathon"); err != nil {
		return err
	}
	b := startBar(progress, "counters", 2)
	defer b.finish()
	if _, err := tx.Exec(ctx, `
UPDATE applications a SET review_count = a.review_count + c.n
FROM (SELECT application_id, count(*)::integer AS n FROM reviews
      WHERE reviewer_id = ANY($1) GROUP BY application_id) c
WHERE a.id = c.application_id`, p.reviewerIDs); err != nil {
		return err
	}
	b.add(1)
	if _, err := tx.Exec(ctx, `
INSERT INTO reviewer_stats AS s (hackathon_id, reviewer_id, review_count, resume_sum, links_sum, q1_sum, q2_sum)
SELECT hackathon_id, reviewer_id, count(*), sum(resume_score), sum(links_score), sum(q1_score), sum(q2_score)
FROM reviews WHERE reviewer_id = ANY($1) GROUP BY hackathon_id, reviewer_id
ON CONFLICT (hackathon_id, reviewer_id) DO UPDATE SET
    review_count = s.review_count + EXCLUDED.review_count,
    resume_sum = s.resume_sum + EXCLUDED.resume_sum,
    links_sum = s.links_sum + EXCLUDED.links_sum,
    q1_sum = s.q1_sum + EXCLUDED.q1_sum,
    q2_sum = s.q2_sum + EXCLUDED.q2_sum`, p.reviewerIDs); err != nil {
		return err
	}
	b.add(1)
	return nil
}

// copyRows streams n rows made by row(i), in order, into table with COPY.
func copyRows(ctx context.Context, tx pgx.Tx, progress io.Writer, table string, columns []string, n int, row func(i int) []any) error {
	src := &rowSource{ctx: ctx, n: n, row: row, bar: startBar(progress, table, n)}
	defer src.bar.finish()
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{table}, columns, src); err != nil {
		return fmt.Errorf("copy %s: %w", table, err)
	}
	return nil
}

// rowSource is a pgx.CopyFromSource that makes each row when it is asked
// for, so no table is ever held in memory whole.
type rowSource struct {
	ctx  context.Context
	n, i int
	row  func(i int) []any
	vals []any
	bar  *bar
	err  error
}

func (s *rowSource) Next() bool {
	if s.i >= s.n {
		return false
	}
	if s.i%1024 == 0 {
		if s.err = s.ctx.Err(); s.err != nil {
			return false
		}
	}
	s.vals = s.row(s.i)
	s.i++
	s.bar.add(1)
	return true
}

func (s *rowSource) Values() ([]any, error) { return s.vals, nil }
func (s *rowSource) Err() error             { return s.err }

// bar draws `\r[#####.....] reviews 150000/300000 12.0s` every 100 ms
// from its own goroutine, so that the elapsed time keeps moving while the
// server works through what was sent; finish draws the final state and ends
// the line.
type bar struct {
	w        io.Writer
	label    string
	total    int
	start    time.Time
	n        atomic.Int64
	stop     chan struct{}
	finished sync.WaitGroup
}

const barWidth = 30

func startBar(w io.Writer, label string, total int) *bar {
	b := &bar{w: w, label: label, total: total, start: time.Now(), stop: make(chan struct{})}
	b.draw()
	b.finished.Add(1)
	go func() {
		defer b.finished.Done()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				b.draw()
			case <-b.stop:
				return
			}
		}
	}()
	return b
}

func (b *bar) add(k int) { b.n.Add(int64(k)) }

func (b *bar) draw() {
	n := int(b.n.Load())
	filled := barWidth
	if b.total > 0 {
		filled = min(n, b.total) * barWidth / b.total
	}
	fmt.Fprintf(b.w, "\r[%s%s] %-12s %d/%d %.1fs", strings.Repeat("#", filled), strings.Repeat(".", barWidth-filled),
		b.label, n, b.total, time.Since(b.start).Seconds())
}

// finish stops the redrawing (it is called on error paths too) and leaves
// the final state on its own line.
func (b *bar) finish() {
	close(b.stop)
	b.finished.Wait()
	b.draw()
	fmt.Fprintln(b.w)
}

// plan holds what rows refer to across tables: IDs, names and times of the
// applicants, the reviewers' IDs. Row contents are made while copying.
type plan struct {
	o          Options
	now        time.Time
	ids        *rand.Rand // row IDs, keyed by seed and prefix
	applicants []applicant
	// The reviewer slices are indexed by reviewer number.
	reviewerIDs   []uuid.UUID
	reviewerSince []time.Time
	reviewerNames [][2]uint8
}

type applicant struct {
	profileID, applicationID   uuid.UUID
	joined, created, submitted time.Time // account, application draft, submission
	first, last                uint8     // indices into firstNames, lastNames
}

// Streams of the generator: each phase draws from its own, so changing one
// phase's content does not shift another's.
const (
	streamIDs = iota + 1
	streamPlan
	streamProfiles
	streamApplications
	streamReviews
)

func (p *plan) rng(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(p.o.Seed), stream*0x9e3779b97f4a7c15))
}

func newPlan(o Options, now time.Time) *plan {
	p := &plan{o: o, now: now}
	// IDs are keyed by seed and prefix: reproducible for a given pair, and
	// distinct between runs that differ in either.
	h := fnv.New64a()
	h.Write([]byte(o.Prefix))
	p.ids = rand.New(rand.NewPCG(uint64(o.Seed)^h.Sum64(), streamIDs))
	ids := p.ids
	r := p.rng(streamPlan)
	const day = 24 * time.Hour
	p.applicants = make([]applicant, o.Applications)
	for i := range p.applicants {
		a := &p.applicants[i]
		a.profileID, a.applicationID = newUUID(ids), newUUID(ids)
		// Drafts start over the last 30 days (ending two hours ago); the
		// submission follows within three days, at least an hour before now.
		a.created = now.Add(-2*time.Hour - between(r, 0, 30*day-2*time.Hour))
		room := min(3*day, now.Sub(a.created)-time.Hour)
		a.submitted = a.created.Add(between(r, 10*time.Minute, room))
		a.joined = a.created.Add(-between(r, time.Minute, 14*day))
		a.first, a.last = uint8(r.IntN(len(firstNames))), uint8(r.IntN(len(lastNames)))
	}
	p.reviewerIDs = make([]uuid.UUID, o.Reviewers)
	p.reviewerSince = make([]time.Time, o.Reviewers)
	p.reviewerNames = make([][2]uint8, o.Reviewers)
	for i := range p.reviewerIDs {
		p.reviewerIDs[i] = newUUID(ids)
		p.reviewerSince[i] = now.Add(-between(r, 45*day, 120*day))
		p.reviewerNames[i] = [2]uint8{uint8(r.IntN(len(firstNames))), uint8(r.IntN(len(lastNames)))}
	}
	return p
}

// newUUID is a version 4 UUID from r.
func newUUID(r *rand.Rand) uuid.UUID {
	var u uuid.UUID
	binary.LittleEndian.PutUint64(u[:8], r.Uint64())
	binary.LittleEndian.PutUint64(u[8:], r.Uint64())
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return u
}

// between is a duration uniform in [lo, hi] at one-second resolution.
func between(r *rand.Rand, lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + time.Duration(r.Int64N(int64((hi-lo)/time.Second)+1))*time.Second
}

func (p *plan) applicantEmail(i int) string {
	return p.o.Prefix + ".applicant" + strconv.Itoa(i) + "@" + EmailDomain
}

func (p *plan) reviewerEmail(i int) string {
	return p.o.Prefix + ".reviewer" + strconv.Itoa(i) + "@" + EmailDomain
}

var profileColumns = []string{"id", "email", "display_name", "password_hash", "role", "email_confirmed_at", "created_at", "updated_at"}

// profileRow makes the applicants' profiles, then the reviewers'.
func (p *plan) profileRow(hash string) func(i int) []any {
	r := p.rng(streamProfiles)
	return func(i int) []any {
		if i < len(p.applicants) {
			a := &p.applicants[i]
			confirmed := a.joined.Add(between(r, 30*time.Second, 2*time.Hour))
			return []any{a.profileID, p.applicantEmail(i), fullName(a.first, a.last), hash, "member", confirmed, a.joined, confirmed}
		}
		i -= len(p.applicants)
		since := p.reviewerSince[i]
		confirmed := since.Add(between(r, time.Minute, time.Hour))
		n := p.reviewerNames[i]
		return []any{p.reviewerIDs[i], p.reviewerEmail(i), fullName(n[0], n[1]), hash, "admin", confirmed, since, confirmed}
	}
}

func fullName(first, last uint8) string { return firstNames[first] + " " + lastNames[last] }

var applicationColumns = []string{
	"id", "profile_id", "hackathon_id", "status", "email", "phone", "discord", "tshirt_size", "dietary_restrictions",
	"age", "country", "gender", "ethnicity", "university", "program", "year_of_study", "experience_level",
	"hackathons_attended", "github_url", "linkedin_url", "website_url", "resume_key", "resume_name",
	"resume_type", "q1_answer", "q2_answer", "team_members", "coc_agreed", "info_share_authorized", "marketing_opt_in",
	"created_at", "updated_at", "submitted_at",
}

// applicationRow makes submitted applications that pass every submit rule.
func (p *plan) applicationRow() func(i int) []any {
	r := p.rng(streamApplications)
	return func(i int) []any {
		a := &p.applicants[i]
		first, last := firstNames[a.first], lastNames[a.last]
		lfirst, llast := strings.ToLower(first), strings.ToLower(last)
		c := &countries[pickWeighted(r, countryWeights)]

		hackathons := 0
		if r.IntN(100) >= 35 {
			hackathons = 1 + r.IntN(4) + r.IntN(3)*r.IntN(5)
		}
		level := "Beginner"
		switch {
		case hackathons >= 6:
			level = "Advanced"
		case hackathons >= 2:
			level = "Intermediate"
		}
		if hackathons > 0 && r.IntN(8) == 0 {
			level += ",Mentor"
		}
		handle := lfirst + llast + strconv.Itoa(r.IntN(1000))
		resumeName := first + "_" + last + "_Resume.pdf"
		return []any{
			a.applicationID, a.profileID, p.o.Hackathon, string(application.StatusSubmitted), p.applicantEmail(i),
			c.phone(r),
			discordName(r, lfirst, llast),
			tshirtSizes[pickWeighted(r, tshirtWeights)],
			sometimes(r, 25, dietary),
			int32(17 + r.IntN(7) + r.IntN(8)), // 17..30, most around 20-23
			c.name,
			sometimes(r, 75, genders),
			someOf(r, 65, ethnicities),
			pick(r, universities),
			pick(r, programs),
			pick(r, years),
			level,
			int32(hackathons),
			"https://github.com/" + handle,
			maybe(r, 55, "https://www.linkedin.com/in/"+lfirst+"-"+llast+"-"+strconv.FormatUint(r.Uint64N(1<<24), 16)),
			maybe(r, 20, "https://"+lfirst+llast+".dev"),
			a.profileID.String() + "/" + resumeName,
			resumeName,
			resume.PDF.Kind(),
			projectAnswer(r),
			haiku(r),
			"",
			true, true, r.IntN(100) < 40,
			a.created, a.submitted, a.submitted,
		}
	}
}

var reviewColumns = []string{"id", "application_id", "hackathon_id", "reviewer_id", "resume_score", "links_score", "q1_score", "q2_score", "reviewed_at"}

// reviewRow makes the reviews, reviewer by reviewer. Reviewer r takes
// Reviews/Reviewers of them (the first Reviews%Reviewers one more), the next
// that many applications from a shuffled order taken as a ring: a reviewer's
// share is at most Applications, so its applications are distinct, and every
// application ends up with Reviews/Applications reviews, give or take one,
// as the review queue (fewest reviews first) would leave them.
func (p *plan) reviewRow() func(i int) []any {
	r := p.rng(streamReviews)
	order := r.Perm(len(p.applicants))
	base, extra := p.o.Reviews/p.o.Reviewers, p.o.Reviews%p.o.Reviewers
	reviewer, done, pos := 0, 0, 0 // current reviewer, its reviews so far, ring position
	return func(int) []any {
		share := base
		if reviewer < extra {
			share++
		}
		for done == share { // next reviewer (a zero share is skipped)
			reviewer, done = reviewer+1, 0
			share = base
			if reviewer < extra {
				share++
			}
		}
		a := &p.applicants[order[pos]]
		pos = (pos + 1) % len(order)
		done++
		reviewed := a.submitted.Add(between(r, time.Minute, p.now.Sub(a.submitted)))
		return []any{
			newUUID(p.ids), a.applicationID, p.o.Hackathon, p.reviewerIDs[reviewer],
			int32(r.IntN(4)), int32(r.IntN(3)), int32(r.IntN(8)), int32(r.IntN(4)),
			reviewed,
		}
	}
}

func pick(r *rand.Rand, list []string) string { return list[r.IntN(len(list))] }

// pickWeighted is an index into weights, drawn in proportion to them.
func pickWeighted(r *rand.Rand, weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := r.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}

// maybe is v in pct percent of draws and NULL otherwise.
func maybe(r *rand.Rand, pct int, v string) any {
	if r.IntN(100) < pct {
		return v
	}
	return nil
}

// sometimes is one item of list in pct percent of draws and NULL otherwise.
func sometimes(r *rand.Rand, pct int, list []string) any {
	if r.IntN(100) < pct {
		return pick(r, list)
	}
	return nil
}

// someOf is like sometimes, with two distinct items (comma-separated, as
// the API stores a list) one time in ten.
func someOf(r *rand.Rand, pct int, list []string) any {
	if r.IntN(100) >= pct {
		return nil
	}
	i := r.IntN(len(list))
	if r.IntN(10) > 0 {
		return list[i]
	}
	j := (i + 1 + r.IntN(len(list)-1)) % len(list)
	return list[i] + "," + list[j]
}

// discordName is a Discord username: 2-32 of a-z, 0-9, '_' and '.'.
func discordName(r *rand.Rand, first, last string) string {
	var s string
	switch r.IntN(4) {
	case 0:
		s = first + "." + last
	case 1:
		s = first + "_" + last[:1]
	case 2:
		s = first[:1] + last
	default:
		s = pick(r, discordWords) + "_" + first
	}
	s += strconv.Itoa(r.IntN(100))
	if len(s) > 32 {
		s = s[:32]
	}
	return s
}

type country struct {
	name        string
	phoneFormat string // '#' is any digit, 'N' a digit 2-9
}

func (c *country) phone(r *rand.Rand) string {
	b := []byte(c.phoneFormat)
	for i, ch := range b {
		switch ch {
		case '#':
			b[i] = byte('0' + r.IntN(10))
		case 'N':
			b[i] = byte('2' + r.IntN(8))
		}
	}
	return string(b)
}

// projectAnswer is Question 1: a technical project, its challenges and what
// was learned.
func projectAnswer(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString(pick(r, projectOpeners))
	b.WriteString(" ")
	b.WriteString(pick(r, projects))
	b.WriteString(" using ")
	b.WriteString(pick(r, stacks))
	b.WriteString(". ")
	b.WriteString(pick(r, challenges))
	b.WriteString(" ")
	b.WriteString(pick(r, fixes))
	b.WriteString(" ")
	b.WriteString(pick(r, learnings))
	if r.IntN(2) == 0 {
		b.WriteString(" ")
		b.WriteString(pick(r, closers))
	}
	return b.String()
}

// haiku is Question 2: three lines of five, seven and five syllables.
func haiku(r *rand.Rand) string {
	return pick(r, haikuFive) + "\n" + pick(r, haikuSeven) + "\n" + pick(r, haikuFiveEnd)
}

// The word lists: ASCII letters only in names, so that handles and URLs
// built from them are valid as they are.
var (
	firstNames = []string{
		"Aaliyah", "Aarav", "Abdullah", "Adam", "Aditi", "Ahmed", "Aiden", "Aisha", "Alex", "Alice",
		"Amara", "Amir", "Ana", "Ananya", "Andrew", "Anika", "Arjun", "Ava", "Ben", "Bianca",
		"Carlos", "Chen", "Chloe", "Chidi", "Daniel", "Deepa", "Diego", "Dmitri", "Elena", "Elijah",
		"Emily", "Emma", "Ethan", "Fatima", "Felix", "Gabriel", "Grace", "Hana", "Hassan", "Ian",
		"Isabella", "Ivan", "Jack", "Jasmine", "Javier", "Ji", "Jordan", "Julia", "Kai", "Kavya",
		"Kenji", "Laila", "Leah", "Liam", "Lucas", "Maya", "Mei", "Mohammed", "Nadia", "Naomi",
		"Nathan", "Nia", "Noah", "Olivia", "Omar", "Oscar", "Priya", "Rahul", "Riley", "Rohan",
		"Sakura", "Samuel", "Sara", "Sofia", "Tariq", "Thomas", "Uma", "Victor", "Wei", "Yara",
		"Yusuf", "Zara", "Zoe", "Mateo",
	}
	lastNames = []string{
		"Abbott", "Adeyemi", "Ahmed", "Ali", "Anderson", "Bose", "Brown", "Campbell", "Chen", "Chowdhury",
		"Clarke", "Costa", "Das", "Dubois", "Fernandes", "Fitzgerald", "Gagnon", "Garcia", "Gill", "Gupta",
		"Haddad", "Hussain", "Ibrahim", "Ito", "Jensen", "Johnson", "Kapoor", "Khan", "Kim", "Kowalski",
		"Kumar", "Lee", "Li", "Lopez", "MacDonald", "Martin", "Mensah", "Morales", "Murphy", "Nakamura",
		"Nguyen", "Novak", "Okafor", "Olsen", "Patel", "Pereira", "Petrov", "Power", "Qureshi", "Reddy",
		"Rodriguez", "Rossi", "Roy", "Santos", "Schmidt", "Shah", "Sharma", "Silva", "Singh", "Smith",
		"Tanaka", "Tremblay", "Walsh", "Wang", "Williams", "Wilson", "Wong", "Yang", "Zhang", "Zhou",
	}
	discordWords = []string{"pixel", "byte", "null", "async", "kernel", "lambda", "vector", "cosmic", "turbo", "quiet"}

	countries = []country{
		{"Canada", "+1 (N##) N##-####"},
		{"United States", "+1 (N##) N##-####"},
		{"India", "+91 9#### #####"},
		{"China", "+86 13# #### ####"},
		{"Nigeria", "+234 80# ### ####"},
		{"Pakistan", "+92 3## #######"},
		{"Bangladesh", "+880 17## ######"},
		{"Brazil", "+55 (##) 9####-####"},
		{"Mexico", "+52 55 #### ####"},
		{"United Kingdom", "+44 7### ######"},
		{"Iran", "+98 912 ### ####"},
		{"Philippines", "+63 9## ### ####"},
	}
	countryWeights = []int{60, 8, 8, 5, 3, 2, 2, 2, 2, 3, 2, 3}

	tshirtSizes   = []string{"XS", "S", "M", "L", "XL", "XXL"}
	tshirtWeights = []int{5, 20, 32, 25, 13, 5}
	dietary       = []string{"Vegetarian", "Vegan", "Halal", "Kosher", "Gluten-free", "Nut allergy", "Lactose intolerant", "Pescatarian", "No pork"}
	genders       = []string{"Man", "Man", "Woman", "Woman", "Non-binary", "Prefer not to say"}
	ethnicities   = []string{
		"East Asian", "South Asian", "Southeast Asian", "Black", "White", "Hispanic or Latino",
		"Middle Eastern", "Indigenous", "Pacific Islander", "Prefer not to say",
	}
	universities = []string{
		"Memorial University of Newfoundland", "University of Toronto", "University of Waterloo", "McGill University",
		"University of British Columbia", "Dalhousie University", "University of Ottawa", "Queen's University",
		"McMaster University", "Western University", "York University", "Toronto Metropolitan University",
		"Carleton University", "University of Alberta", "University of Calgary", "Concordia University",
		"Simon Fraser University", "University of New Brunswick",
	}
	programs = []string{
		"Computer Science", "Software Engineering", "Computer Engineering", "Electrical Engineering",
		"Mathematics", "Data Science", "Physics", "Business Administration", "Mechanical Engineering",
		"Cognitive Science", "Statistics", "Information Technology", "Biomedical Engineering", "Economics",
	}
	years = []string{"1st year", "2nd year", "3rd year", "4th year", "5th year or later", "Graduate student", "Recent graduate"}

	projectOpeners = []string{
		"Last semester I built", "For my co-op term I worked on", "At my first hackathon my team built",
		"My favourite project so far is", "Over the summer I built", "For a course project I led",
	}
	projects = []string{
		"a bus tracker for St. John's that predicts late arrivals",
		"a Discord bot that schedules study groups",
		"a browser extension that summarizes lecture slides",
		"an inventory system for our campus food bank",
		"a multiplayer trivia game that runs in the browser",
		"a mobile app that splits grocery bills between roommates",
		"a dashboard for air-quality sensors in our residence",
		"a compiler for a small teaching language",
		"a plant-watering robot controlled from a phone",
		"a search engine over our faculty's course outlines",
		"a tool that turns handwritten notes into flashcards",
		"a volunteer shift planner for a local shelter",
	}
	stacks = []string{
		"React and a Go API", "Flutter and Firebase", "Python, FastAPI and PostgreSQL", "Next.js and Supabase",
		"Rust and WebAssembly", "an ESP32 and a small Node.js server", "Swift and Core ML", "Kotlin and Room",
		"Django and Celery", "TypeScript, Express and MongoDB", "C++ and OpenCV", "Svelte and SQLite",
	}
	challenges = []string{
		"The hardest part was keeping the data in sync when the network dropped.",
		"Our first version was far too slow once real users showed up.",
		"We underestimated how messy the input data would be.",
		"Half-way through, the API we depended on changed its rate limits.",
		"None of us had deployed anything before, so getting it online took a whole night.",
		"Merging everyone's work at 3 a.m. caused more bugs than it fixed.",
		"Testing hardware code without the hardware on hand was a constant struggle.",
		"Designing the database schema twice cost us most of a weekend.",
	}
	fixes = []string{
		"I added a local queue that retries writes and made every request idempotent.",
		"Profiling showed one query doing all the work, and an index plus caching fixed it.",
		"We wrote a small validation layer and a set of test fixtures from real examples.",
		"We switched to batching requests and showing partial results while the rest loaded.",
		"I wrote a simulator for the sensors so we could test on our laptops.",
		"We set up continuous integration so every change ran the tests before merging.",
	}
	learnings = []string{
		"I learned to measure before optimizing.",
		"It taught me that clear interfaces between teammates matter more than clever code.",
		"I came away knowing how much good error messages help users and developers alike.",
		"The biggest lesson was to ship something small early and improve it with feedback.",
		"I learned how to read other people's code and documentation much faster.",
		"I now write tests first for anything that touches money or data.",
	}
	closers = []string{
		"I would love to build something similar with a new team at this hackathon.",
		"Since then I have mentored two first-year students on their own projects.",
		"The project is open source and a few people still use it every week.",
		"Next I want to try the same idea with a proper machine-learning model.",
	}
	haikuFive = []string{
		"Cold coffee at dawn", "Cursor blinking slow", "Snow on the harbour", "Semicolon lost",
		"Twelve tabs left open", "Fog over Signal Hill", "The build finally green", "Pizza boxes stacked",
	}
	haikuSeven = []string{
		"a stack trace scrolls past my eyes", "the demo starts in ten minutes",
		"my teammate whispers it works", "the wifi drops one more time",
		"we push to main and we pray", "the judges lean in to look",
		"one more bug before the dawn", "the merge conflict melts away",
	}
	haikuFiveEnd = []string{
		"we ship it anyway", "sunrise on the code", "sleep can wait a while",
		"the tests all pass now", "a new friend was made", "hello, world, again",
		"the logs tell the truth", "laughter fills the room",
	}
)
