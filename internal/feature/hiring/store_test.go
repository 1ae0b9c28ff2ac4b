package hiring_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/testenv"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/mail"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// round is a hiring term with a Design and a Tech position and one
// submitted applicant who chose both.
type round struct {
	store          *db.Store
	term           db.Term
	design, tech   uuid.UUID
	applicant      uuid.UUID
	application    uuid.UUID
	selDesign      uuid.UUID
	selTech        uuid.UUID
	applicantEmail string
}

const fakeHash = "$argon2id$v=19$m=8,t=1,p=1$c2VlZA$c2VlZA"

func newProfile(t *testing.T, store *db.Store, email string) uuid.UUID {
	t.Helper()
	var id uuid.UUID
	if err := store.Pool().QueryRow(context.Background(), `INSERT INTO profiles (email, display_name, password_hash, email_confirmed_at)
		VALUES ($1, 'Name of ' || $1, $2, now()) RETURNING id`, email, fakeHash).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// newApplication is a submitted application of profile for positions,
// listing team as its team.
func newApplication(t *testing.T, store *db.Store, profile uuid.UUID, team string, positions ...uuid.UUID) uuid.UUID {
	t.Helper()
	var id uuid.UUID
	if err := store.Pool().QueryRow(context.Background(), `
		INSERT INTO applications (profile_id, status, email, resume_key, resume_name, resume_type, q1_answer, q2_answer,
		    coc_agreed, info_share_authorized, submitted_at, team_members, position_ids)
		SELECT p.id, 'submitted', p.email, p.id::text || '/cv.pdf', 'cv.pdf', 'pdf', 'q1', 'q2', true, true, now(), $2, $3
		FROM profiles p WHERE p.id = $1 RETURNING id`, profile, team, positions).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func newSelection(t *testing.T, store *db.Store, application, position, termID uuid.UUID) uuid.UUID {
	t.Helper()
	var id uuid.UUID
	if err := store.Pool().QueryRow(context.Background(), `INSERT INTO selections (application_id, position_id, term_id)
		VALUES ($1, $2, $3) RETURNING id`, application, position, termID).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func newTerm(t *testing.T, store *db.Store, name, starts, ends string) db.Term {
	t.Helper()
	in := &term.Input{Create: true}
	in.Name.Set, in.Name.V = true, name
	in.StartsOn.Set, in.StartsOn.V = true, starts
	in.EndsOn.Set, in.EndsOn.V = true, ends
	tm, err := term.Create(context.Background(), store.Queries, in)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func newPosition(t *testing.T, store *db.Store, title, subteam string) uuid.UUID {
	t.Helper()
	in := &hiring.PositionInput{Create: true}
	in.Title.Set, in.Title.V = true, title
	in.Subteam.Set, in.Subteam.V = true, subteam
	in.Grants.Set, in.Grants.V = true, "exec"
	p, err := hiring.CreatePosition(context.Background(), store.Queries, in)
	if err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func newRound(t *testing.T) round {
	t.Helper()
	r := round{store: testenv.Store(t), applicantEmail: "ada@example.com"}
	r.term = newTerm(t, r.store, "2026-2027", "2026-09-01", "2027-08-31")
	r.design = newPosition(t, r.store, "Designer", "Design")
	r.tech = newPosition(t, r.store, "Developer", "Tech")
	r.applicant = newProfile(t, r.store, r.applicantEmail)
	r.application = newApplication(t, r.store, r.applicant, "grace@example.com", r.design, r.tech)
	r.selDesign = newSelection(t, r.store, r.application, r.design, r.term.ID)
	r.selTech = newSelection(t, r.store, r.application, r.tech, r.term.ID)
	return r
}

// change runs one status change in a transaction.
func (r round) change(actor hiring.Actor, id uuid.UUID, to hiring.Status) (hiring.SelectionView, []mail.Ref, error) {
	ctx := context.Background()
	var (
		out  hiring.SelectionView
		refs []mail.Ref
	)
	err := r.store.InTx(ctx, func(q *db.Queries) (err error) {
		out, refs, err = hiring.ChangeStatus(ctx, q, actor, id, to)
		return err
	})
	return out, refs, err
}

func (r round) status(t *testing.T, id uuid.UUID) (string, int) {
	t.Helper()
	var status string
	var events int
	if err := r.store.Pool().QueryRow(context.Background(), `SELECT status, (SELECT count(*) FROM selection_events WHERE selection_id = $1)
		FROM selections WHERE id = $1`, id).Scan(&status, &events); err != nil {
		t.Fatal(err)
	}
	return status, events
}

// wantAppErr checks err is the apperr with code and message.
func wantAppErr(t *testing.T, what string, err error, code apperr.Code, message string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Code != code || e.Message != message {
		t.Fatalf("%s: %v, want %s %q", what, err, code, message)
	}
}

func TestChangeStatusScopeRoleAndMoves(t *testing.T) {
	t.Parallel()
	r := newRound(t)
	vpDesign := hiring.NewActor(newProfile(t, r.store, "vp@example.com"), "vp@example.com", false, "VP", "Design")
	president := hiring.NewActor(newProfile(t, r.store, "pres@example.com"), "pres@example.com", false, "President", "")

	// In scope: a VP moves their subteam's selection among the review
	// statuses; the move is recorded, no email.
	out, refs, err := r.change(vpDesign, r.selDesign, hiring.Wanted)
	if err != nil || out.Status != "wanted" || out.Position.ID != r.design || len(refs) != 0 {
		t.Fatalf("in scope: %+v %v %v", out, refs, err)
	}
	if s, n := r.status(t, r.selDesign); s != "wanted" || n != 1 {
		t.Fatalf("stored %s with %d events", s, n)
	}
	// Out of scope: another subteam's selection does not exist for them.
	if _, _, err := r.change(vpDesign, r.selTech, hiring.Wanted); !errors.Is(err, hiring.ErrSelectionMissing) {
		t.Fatalf("out of scope: %v", err)
	}
	if s, n := r.status(t, r.selTech); s != "in_review" || n != 0 {
		t.Fatalf("out of scope changed it: %s, %d events", s, n)
	}
	// Role before move: a VP may not send an offer.
	if _, _, err := r.change(vpDesign, r.selDesign, hiring.OfferSent); !errors.Is(err, hiring.ErrPresidentOnly) {
		t.Fatalf("VP offer: %v", err)
	}
	// A move the machine refuses is the API's 409.
	_, _, err = r.change(president, r.selTech, hiring.AcceptedOffer)
	wantAppErr(t, "in_review to accepted_offer", err, apperr.Conflict, "cannot move from in_review to accepted_offer")
	if e, _ := apperr.As(err); e.Title != "Invalid status change" {
		t.Fatalf("title %q", e.Title)
	}
	// The same status again changes nothing.
	if out, refs, err := r.change(president, r.selTech, hiring.InReview); err != nil || out.Status != "in_review" || len(refs) != 0 {
		t.Fatalf("same status: %+v %v %v", out, refs, err)
	}
	if _, n := r.status(t, r.selTech); n != 0 {
		t.Fatalf("same status recorded %d events", n)
	}
	// Unknown selection.
	if _, _, err := r.change(president, uuid.New(), hiring.Wanted); !errors.Is(err, hiring.ErrSelectionMissing) {
		t.Fatalf("unknown: %v", err)
	}
}

func TestChangeStatusEmailsAndOneAcceptedOffer(t *testing.T) {
	t.Parallel()
	r := newRound(t)
	ctx := context.Background()
	president := hiring.NewActor(newProfile(t, r.store, "pres@example.com"), "pres@example.com", true, "", "")
	for _, to := range []hiring.Status{hiring.Wanted, hiring.OfferSent} {
		out, refs, err := r.change(president, r.selDesign, to)
		if err != nil || out.Status != string(to) {
			t.Fatalf("%s: %+v %v", to, out, err)
		}
		if to != hiring.OfferSent {
			continue
		}
		want := mail.Ref{Key: "selection:" + r.selDesign.String() + ":offer_sent", Kind: hiring.OfferKind}
		if len(refs) != 1 || refs[0] != want {
			t.Fatalf("offer refs %+v, want %+v", refs, want)
		}
		var kind, to string
		if err := r.store.Pool().QueryRow(ctx, `SELECT kind, to_address FROM emails WHERE idempotency_key = $1`, want.Key).Scan(&kind, &to); err != nil || kind != want.Kind || to != r.applicantEmail {
			t.Fatalf("recorded email %s %s %v", kind, to, err)
		}
	}
	if _, _, err := r.change(president, r.selDesign, hiring.AcceptedOffer); err != nil {
		t.Fatal(err)
	}
	// The second position reaches offer_sent, but the applicant has
	// accepted an offer this term already.
	for _, to := range []hiring.Status{hiring.Wanted, hiring.OfferSent} {
		if _, _, err := r.change(president, r.selTech, to); err != nil {
			t.Fatalf("%s: %v", to, err)
		}
	}
	if _, _, err := r.change(president, r.selTech, hiring.AcceptedOffer); !errors.Is(err, hiring.ErrOfferAccepted) {
		t.Fatalf("second accepted offer: %v", err)
	}
	// Declining the offer emails nobody.
	if _, refs, err := r.change(president, r.selTech, hiring.DeclinedOffer); err != nil || len(refs) != 0 {
		t.Fatalf("declined: %v %v", refs, err)
	}
}

func TestChangeStatusConflictOfInterest(t *testing.T) {
	t.Parallel()
	r := newRound(t)
	own := hiring.NewActor(r.applicant, r.applicantEmail, false, "President", "")
	_, _, err := r.change(own, r.selDesign, hiring.Wanted)
	wantAppErr(t, "own", err, apperr.Forbidden, "You cannot change the status of your own application")
	teammate := hiring.NewActor(newProfile(t, r.store, "grace@example.com"), "Grace@Example.com", false, "VP", "Design")
	_, _, err = r.change(teammate, r.selDesign, hiring.Wanted)
	wantAppErr(t, "team", err, apperr.Forbidden, "You cannot change the status of an application that lists you as a team member")
	// Scope comes first: out of scope is a 404 even for a teammate.
	if _, _, err := r.change(teammate, r.selTech, hiring.Wanted); !errors.Is(err, hiring.ErrSelectionMissing) {
		t.Fatalf("teammate out of scope: %v", err)
	}
}

func TestReviewListScope(t *testing.T) {
	t.Parallel()
	r := newRound(t)
	ctx := context.Background()
	for _, c := range []struct {
		scope   hiring.Scope
		role    hiring.Role
		want    []uuid.UUID
		allowed []hiring.Status
	}{
		{hiring.Scope{Subteam: "Design"}, hiring.VP, []uuid.UUID{r.selDesign},
			[]hiring.Status{hiring.Interviewing, hiring.Wanted, hiring.NotWanted}},
		{hiring.Scope{Subteam: "Ops"}, hiring.VP, nil, nil},
		{hiring.Scope{All: true}, hiring.President, []uuid.UUID{r.selDesign, r.selTech},
			[]hiring.Status{hiring.Interviewing, hiring.Wanted, hiring.NotWanted, hiring.RejectionSent}},
	} {
		f := hiring.ReviewFilter{Limit: 25}
		if fields := f.Validate(); len(fields) != 0 {
			t.Fatal(fields)
		}
		items, total, err := hiring.ReviewList(ctx, r.store.Queries, nil, c.scope, c.role, f)
		if err != nil {
			t.Fatal(err)
		}
		var got []uuid.UUID
		for _, it := range items {
			got = append(got, it.SelectionID)
			if len(it.Answers) != 2 || it.Answers[0].QuestionID != "q1_answer" || it.Applicant.Email != r.applicantEmail {
				t.Errorf("item %+v", it)
			}
			// Every selection is in review: the moves are the role's.
			if !slices.Equal(it.AllowedStatuses, c.allowed) {
				t.Errorf("%s: allowed %v, want %v", c.role, it.AllowedStatuses, c.allowed)
			}
		}
		if !sameIDs(got, c.want) || total != int64(len(c.want)) {
			t.Errorf("%+v: %v (total %d), want %v", c.scope, got, total, c.want)
		}
	}
}

func sameIDs(a, b []uuid.UUID) bool {
	less := func(x, y uuid.UUID) int { return slices.Compare(x[:], y[:]) }
	a, b = slices.SortedFunc(slices.Values(a), less), slices.SortedFunc(slices.Values(b), less)
	return slices.Equal(a, b)
}
