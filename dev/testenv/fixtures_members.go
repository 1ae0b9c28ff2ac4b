package testenv

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/dev/receipttest"
)

// MembershipOpts describes a membership; the zero value is unpaid.
type MembershipOpts struct {
	Paid bool
	// Method is cash (default), etransfer, card or shop (which needs
	// Receipt).
	Method      string
	AmountCents int64 // default 2000
	// ConfirmedBy is the exec who recorded an in-person payment (default:
	// the member, which the schema allows).
	ConfirmedBy *uuid.UUID
	Receipt     *uuid.UUID
}

// Membership makes the profile a member of the term.
func Membership(t testing.TB, s *db.Store, profile, term uuid.UUID, o MembershipOpts) db.Membership {
	t.Helper()
	ctx := context.Background()
	m, err := s.MembershipInsert(ctx, db.MembershipInsertParams{ProfileID: profile, TermID: term})
	if err != nil {
		t.Fatalf("testenv: membership of %s: %v", profile, err)
	}
	if !o.Paid {
		return m
	}
	if o.Method == "" {
		o.Method = "cash"
	}
	if o.AmountCents == 0 {
		o.AmountCents = 2000
	}
	if o.Method != "shop" && o.ConfirmedBy == nil {
		o.ConfirmedBy = &profile
	}
	if m, err = s.MembershipMarkPaid(ctx, db.MembershipMarkPaidParams{ID: m.ID, Method: &o.Method,
		AmountCents: &o.AmountCents, ConfirmedBy: o.ConfirmedBy, ReceiptID: o.Receipt}); err != nil {
		t.Fatalf("testenv: pay membership of %s: %v", profile, err)
	}
	return m
}

// ReceiptOpts describes a stored receipt; zero fields take the defaults.
type ReceiptOpts struct {
	// Sample is the receipt's email; its zero fields are receipttest.Sample's
	// defaults, and TransactionID defaults to a unique one.
	Sample receipttest.Sample
	// Status is received (default: as the webhook stores it, nothing
	// parsed), or processing, processed, parked, rejected or duplicate: the
	// sample's fields are then recorded as parsed, from the dev shop.
	Status string
	Reason string
}

// Receipt stores a receipt email, unsigned.
func Receipt(t testing.TB, s *db.Store, o ReceiptOpts) db.Receipt {
	t.Helper()
	ctx := context.Background()
	if o.Sample.TransactionID == "" {
		o.Sample.TransactionID = "TX-" + randomHex(4)
	}
	raw := o.Sample.Build()
	stored, err := s.ReceiptStore(ctx, db.ReceiptStoreParams{BodySha256: hashOf(raw), Raw: raw})
	if err != nil || !stored.Inserted {
		t.Fatalf("testenv: store receipt: inserted %v, %v", stored.Inserted, err)
	}
	if o.Status != "" && o.Status != "received" {
		sm := o.Sample
		amount := sm.AmountCents
		if amount == 0 {
			amount = 2000
		}
		err := s.InTx(ctx, func(q *db.Queries) error {
			if err := q.ReceiptSetParsed(ctx, db.ReceiptSetParsedParams{ID: stored.ID, ShopDomain: nonEmpty(sm.Domain, receipttest.DevShopDomain),
				TransactionID: sm.TransactionID, CustomerEmail: sm.Email, AmountCents: &amount, TermName: sm.TermName}); err != nil {
				return err
			}
			return q.ReceiptSetStatus(ctx, db.ReceiptSetStatusParams{ID: stored.ID, Status: o.Status, Reason: o.Reason})
		})
		if err != nil {
			t.Fatalf("testenv: receipt %s: %v", o.Status, err)
		}
	}
	r, err := s.ReceiptGet(ctx, stored.ID)
	if err != nil {
		t.Fatalf("testenv: receipt: %v", err)
	}
	return r
}

// ExecFormOpts describes an onboarding or returning form submission; zero
// fields take the defaults.
type ExecFormOpts struct {
	Kind        string // onboarding (default) or returning
	DisplayName string // default "Exec Person"
	Email       string // default exec@example.com
	Role        string // default "Exec"
	TermType    string // default full_year
	Competency  string // default none
	ChatHandle  string
	// HeadshotKey, when set, stores a headshot key (with consent); no object
	// is uploaded.
	HeadshotKey string
}

// ExecForm records the profile's form submission for the term.
func ExecForm(t testing.TB, s *db.Store, term, profile uuid.UUID, o ExecFormOpts) db.ExecFormSubmissionUpsertRow {
	t.Helper()
	var key *string
	if o.HeadshotKey != "" {
		key = &o.HeadshotKey
	}
	row, err := s.ExecFormSubmissionUpsert(context.Background(), db.ExecFormSubmissionUpsertParams{
		TermID: term, ProfileID: profile, Kind: nonEmpty(o.Kind, "onboarding"),
		DisplayName: nonEmpty(o.DisplayName, "Exec Person"), Email: nonEmpty(o.Email, "exec@example.com"),
		Role: nonEmpty(o.Role, "Exec"), TermType: nonEmpty(o.TermType, "full_year"),
		HeadshotKey: key, HeadshotConsent: key != nil, ChatHandle: o.ChatHandle,
		DsCompetency: nonEmpty(o.Competency, "none"),
	})
	if err != nil {
		t.Fatalf("testenv: exec form of %s: %v", profile, err)
	}
	return row
}

// FoundryProjectOpts describes a Foundry project; zero fields take the
// defaults.
type FoundryProjectOpts struct {
	Name        string // default a unique "project-<hex>"
	ProjectType string // default nextjs
	Database    string // default postgresql
	TeamSlug    string // default platform
	// Status is running (default), succeeded or failed; its steps are all
	// pending.
	Status string
}

// FoundryProject records a project launched by the profile, with its four
// pending steps (no workflow is started).
func FoundryProject(t testing.TB, s *db.Store, createdBy uuid.UUID, o FoundryProjectOpts) db.FoundryProject {
	t.Helper()
	ctx := context.Background()
	id := uuid.New()
	var p db.FoundryProject
	err := s.InTx(ctx, func(q *db.Queries) error {
		var err error
		p, err = q.FoundryProjectInsert(ctx, db.FoundryProjectInsertParams{ID: id,
			Name: nonEmpty(o.Name, "project-"+randomHex(4)), ProjectType: nonEmpty(o.ProjectType, "nextjs"),
			Database: nonEmpty(o.Database, "postgresql"), TeamSlug: nonEmpty(o.TeamSlug, "platform"),
			WorkflowID: "foundry:" + id.String(), CreatedBy: createdBy})
		if err != nil {
			return err
		}
		if err := q.FoundryStepsInit(ctx, id); err != nil {
			return err
		}
		if o.Status != "" && o.Status != p.Status {
			if _, err := q.FoundryProjectFinish(ctx, db.FoundryProjectFinishParams{ID: id, Status: o.Status}); err != nil {
				return err
			}
			p.Status = o.Status
		}
		return nil
	})
	if err != nil {
		t.Fatalf("testenv: foundry project: %v", err)
	}
	return p
}
