package testenv_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/receipttest"
	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/auth"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestAccount(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	p := testenv.Account(t, s, testenv.AccountOpts{Email: "ada@example.com", Role: "admin", MarketingOptIn: true})
	if p.Email != "ada@example.com" || p.Role != "admin" || p.EmailConfirmedAt == nil || !p.MarketingOptIn ||
		p.DisplayName == nil || *p.DisplayName != "ada@example.com" {
		t.Fatalf("account %+v", p)
	}
	if ok, err := auth.VerifyPassword(ctx, "password-ada@example.com", p.PasswordHash); err != nil || !ok {
		t.Fatalf("the default password does not match: %v, %v", ok, err)
	}
	q := testenv.Account(t, s, testenv.AccountOpts{Name: "-", NoPassword: true, Unconfirmed: true})
	if q.Email == p.Email || q.Role != "member" || q.EmailConfirmedAt != nil || q.DisplayName != nil ||
		q.PasswordHash != testenv.UnusablePasswordHash {
		t.Fatalf("second account %+v", q)
	}
	tok, id := testenv.Session(t, s, p.ID, testenv.SessionOpts{})
	got, err := s.SessionPrincipal(ctx, auth.HashToken(tok))
	if err != nil || got.SessionID != id || got.ProfileID != p.ID {
		t.Fatalf("session %+v, %v", got, err)
	}
	_, old := testenv.Session(t, s, p.ID, testenv.SessionOpts{CreatedAgo: 40 * 24 * time.Hour, SeenAgo: time.Hour})
	var expired bool
	if err := s.Pool().QueryRow(ctx, `SELECT expires_at < now() FROM sessions WHERE id = $1`, old).Scan(&expired); err != nil || !expired {
		t.Fatalf("a session opened 40 days ago has not expired: %v, %v", expired, err)
	}
}

func TestApplication(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	owner := testenv.Account(t, s, testenv.AccountOpts{})
	draft := testenv.Application(t, s, owner.ID, testenv.ApplicationOpts{})
	if draft.Status != "draft" || draft.SubmittedAt != nil || draft.Email == nil || *draft.Email != owner.Email ||
		draft.ResumeKey == nil || *draft.ResumeKey != owner.ID.String()+"/cv.pdf" || draft.ResumeType == nil || *draft.ResumeType != "pdf" {
		t.Fatalf("draft %+v", draft)
	}
	// A chosen id, and a resume stored before types were.
	id := uuid.MustParse("00000000-0000-0000-0000-00000000000a")
	someone := testenv.Account(t, s, testenv.AccountOpts{NoPassword: true})
	chosen := testenv.Application(t, s, someone.ID, testenv.ApplicationOpts{ID: id, ResumeType: "-", TeamMembers: "a@example.com"})
	if chosen.ID != id || chosen.ResumeType != nil || chosen.TeamMembers != "a@example.com" {
		t.Fatalf("application with options %+v", chosen)
	}
	// The draft is complete: the submit query's CHECK takes it as it is.
	if _, err := s.ApplicationSubmit(ctx, draft.ID); err != nil {
		t.Fatalf("submit the default draft: %v", err)
	}

	term := testenv.Term(t, s, testenv.TermOpts{Active: true})
	if term.Name != "2026-2027" || !term.Active {
		t.Fatalf("term %+v", term)
	}
	if active, err := s.TermActive(ctx); err != nil || active.ID != term.ID {
		t.Fatalf("active term %v, %v", active.ID, err)
	}
	next := testenv.Term(t, s, testenv.TermOpts{StartsOn: time.Date(2027, 9, 1, 0, 0, 0, 0, time.UTC), Active: true})
	if active, err := s.TermActive(ctx); err != nil || active.ID != next.ID || next.Name != "2027-2028" {
		t.Fatalf("the active flag did not move to %s: %v, %v", next.Name, active.ID, err)
	}
	pos := testenv.Position(t, s, next.ID, testenv.PositionOpts{Grants: "vp"})
	applicant := testenv.Account(t, s, testenv.AccountOpts{})
	app := testenv.Application(t, s, applicant.ID, testenv.ApplicationOpts{Submitted: true, PositionIDs: []uuid.UUID{pos.ID}})
	sels := testenv.Selections(t, s, app.ID)
	if app.Status != "submitted" || app.SubmittedAt == nil || len(sels) != 1 || sels[pos.ID].Status != "in_review" {
		t.Fatalf("submitted %+v, selections %+v", app, sels)
	}
	other := testenv.Position(t, s, next.ID, testenv.PositionOpts{Title: "Designer", Subteam: "Design"})
	if sel := testenv.Selection(t, s, app.ID, other.ID, "wanted"); sel.Status != "wanted" || sel.TermID != next.ID {
		t.Fatalf("selection %+v", sel)
	}

	reviewer := testenv.Account(t, s, testenv.AccountOpts{Role: "admin", NoPassword: true})
	testenv.Review(t, s, app.ID, reviewer.ID, 3, 2, 1, 0)
	offered := testenv.Decide(t, s, app.ID, testenv.Decision{Decision: "offer", Rsvp: "attending"})
	if offered.ReviewCount != 1 || *offered.Decision != "offer" || offered.RsvpDeadline == nil || *offered.Rsvp != "attending" || offered.RsvpAt == nil {
		t.Fatalf("decided %+v", offered)
	}
	q := testenv.Question(t, s, testenv.QuestionOpts{Positions: []uuid.UUID{pos.ID}})
	if ps, err := s.QuestionPositions(ctx, q.ID); err != nil || len(ps) != 1 || ps[0].ID != pos.ID {
		t.Fatalf("question positions %+v, %v", ps, err)
	}
}

func TestMembershipAndReceipt(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	ctx := context.Background()
	term := testenv.Term(t, s, testenv.TermOpts{Active: true})
	exec := testenv.Account(t, s, testenv.AccountOpts{NoPassword: true})
	role := testenv.ExecRole(t, s, exec.ID, testenv.ExecRoleOpts{Position: "VP", Subteam: "Design", Term: &term.ID})
	if !role.Active || *role.Subteam != "Design" || *role.TermID != term.ID {
		t.Fatalf("exec role %+v", role)
	}
	ended := testenv.Account(t, s, testenv.AccountOpts{NoPassword: true})
	if r := testenv.ExecRole(t, s, ended.ID, testenv.ExecRoleOpts{Ended: true}); r.Active || r.EndedAt == nil {
		t.Fatalf("ended role %+v", r)
	}

	member := testenv.Account(t, s, testenv.AccountOpts{NoPassword: true})
	if m := testenv.Membership(t, s, member.ID, term.ID, testenv.MembershipOpts{}); m.Status != "unpaid" {
		t.Fatalf("membership %+v", m)
	}
	payer := testenv.Account(t, s, testenv.AccountOpts{NoPassword: true})
	paid := testenv.Membership(t, s, payer.ID, term.ID, testenv.MembershipOpts{Paid: true, ConfirmedBy: &exec.ID})
	if paid.Status != "paid" || *paid.Method != "cash" || *paid.AmountCents != 2000 || *paid.ConfirmedBy != exec.ID {
		t.Fatalf("paid membership %+v", paid)
	}

	r := testenv.Receipt(t, s, testenv.ReceiptOpts{})
	if r.Status != "received" || r.TransactionID != "" || len(r.Raw) == 0 {
		t.Fatalf("received receipt %+v", r)
	}
	done := testenv.Receipt(t, s, testenv.ReceiptOpts{Status: "processed",
		Sample: receipttest.Sample{Email: "shopper@example.com", TermName: term.Name, TransactionID: "TX-1"}})
	if done.Status != "processed" || done.TransactionID != "TX-1" || done.ShopDomain != receipttest.DevShopDomain ||
		done.CustomerEmail != "shopper@example.com" || *done.AmountCents != 2000 {
		t.Fatalf("processed receipt %+v", done)
	}
	shopper := testenv.Account(t, s, testenv.AccountOpts{Email: "shopper@example.com", NoPassword: true})
	bought := testenv.Membership(t, s, shopper.ID, term.ID, testenv.MembershipOpts{Paid: true, Method: "shop", Receipt: &done.ID})
	if bought.ConfirmedBy != nil || *bought.ReceiptID != done.ID {
		t.Fatalf("shop membership %+v", bought)
	}
	if _, err := s.MembershipGetByReceipt(ctx, &done.ID); err != nil {
		t.Fatal(err)
	}

	form := testenv.ExecForm(t, s, term.ID, exec.ID, testenv.ExecFormOpts{Kind: "returning", HeadshotKey: "k/1.jpg"})
	if form.Kind != "returning" || !form.HeadshotConsent || !form.Created {
		t.Fatalf("exec form %+v", form)
	}
	p := testenv.FoundryProject(t, s, exec.ID, testenv.FoundryProjectOpts{Status: "failed"})
	steps, err := s.FoundryStepsList(ctx, p.ID)
	if err != nil || len(steps) != 4 || steps[0].Status != "pending" || p.Status != "failed" {
		t.Fatalf("project %+v, steps %+v, %v", p, steps, err)
	}
	got, err := s.FoundryProjectGet(ctx, p.ID)
	if err != nil || got.Status != "failed" {
		t.Fatalf("stored project %+v, %v", got, err)
	}
	// A failed project frees its name.
	testenv.FoundryProject(t, s, exec.ID, testenv.FoundryProjectOpts{Name: p.Name})
}

// The fixtures report what the database refused.
func TestFixturesFail(t *testing.T) {
	t.Parallel()
	s := testenv.Store(t)
	testenv.Account(t, s, testenv.AccountOpts{Email: "twice@example.com", NoPassword: true})
	msg := fatalOf(func(t testing.TB) {
		testenv.Account(t, s, testenv.AccountOpts{Email: "twice@example.com", NoPassword: true})
	})
	if msg == "" {
		t.Fatal("a second account with the same email did not fail")
	}
	if !strings.Contains(msg, "twice@example.com") || !strings.Contains(msg, db.ErrConflict.Error()) {
		t.Fatalf("message %q, want the email and the conflict", msg)
	}
}
