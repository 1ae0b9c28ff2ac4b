package membership_test

import (
	"bytes"
	"maps"
	"testing"

	"github.com/google/uuid"

	"hackdesk/internal/feature/membership"
	"hackdesk/internal/platform/apperr"
)

// TestReceiptMoves checks the whole table of a receipt's status moves:
// every pair of statuses, allowed exactly when listed here.
func TestReceiptMoves(t *testing.T) {
	t.Parallel()
	const (
		received   = membership.ReceiptReceived
		processing = membership.ReceiptProcessing
		processed  = membership.ReceiptProcessed
		parked     = membership.ReceiptParked
		rejected   = membership.ReceiptRejected
		duplicate  = membership.ReceiptDuplicate
	)
	allowed := map[[2]membership.ReceiptStatus]bool{
		{received, rejected}:    true, // the sender or DKIM failed
		{received, parked}:      true, // unreadable
		{received, duplicate}:   true, // another receipt holds the transaction
		{received, processing}:  true, // the transaction claimed
		{processing, parked}:    true, // it does not fit a membership
		{processing, processed}: true, // the membership paid
		{parked, parked}:        true, // applied again, still does not fit
		{parked, processed}:     true, // matched by an admin
	}
	all := membership.ReceiptStatuses()
	if len(all) != 6 {
		t.Fatalf("%d statuses, want 6", len(all))
	}
	for _, from := range all {
		for _, to := range all {
			if got, want := membership.CanMoveReceipt(from, to), allowed[[2]membership.ReceiptStatus{from, to}]; got != want {
				t.Errorf("CanMoveReceipt(%s, %s) = %v, want %v", from, to, got, want)
			}
		}
	}
	if membership.CanMoveReceipt("", received) || membership.CanMoveReceipt(received, "archived") {
		t.Error("a move from or to an unknown status is allowed")
	}

	for _, c := range []struct {
		status     membership.ReceiptStatus
		applicable bool
		valid      bool
	}{
		{received, false, true}, {processing, true, true}, {processed, false, true},
		{parked, true, true}, {rejected, false, true}, {duplicate, false, true}, {"archived", false, false},
	} {
		if got := c.status.Applicable(); got != c.applicable {
			t.Errorf("%q.Applicable() = %v, want %v", c.status, got, c.applicable)
		}
		if got := c.status.Valid(); got != c.valid {
			t.Errorf("%q.Valid() = %v, want %v", c.status, got, c.valid)
		}
	}

	for _, c := range []struct {
		status membership.ReceiptStatus
		tx     string
		want   bool
	}{
		{parked, "TX-1", true}, {parked, "", false}, {processing, "TX-1", false}, {processed, "TX-1", false}, {received, "", false},
	} {
		if got := membership.Matchable(c.status, c.tx); got != c.want {
			t.Errorf("Matchable(%s, %q) = %v, want %v", c.status, c.tx, got, c.want)
		}
	}
}

func TestMethods(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		method   string
		inPerson bool
		label    string
	}{
		{"cash", true, "cash"}, {"etransfer", true, "e-transfer"}, {"card", true, "card"},
		{"shop", false, "the campus shop"}, {"cheque", false, "cheque"}, {"", false, ""},
	} {
		if got := membership.ValidInPerson(c.method); got != c.inPerson {
			t.Errorf("ValidInPerson(%q) = %v, want %v", c.method, got, c.inPerson)
		}
		if got := membership.MethodLabel(c.method); got != c.label {
			t.Errorf("MethodLabel(%q) = %q, want %q", c.method, got, c.label)
		}
	}
	for s, want := range map[membership.Status]bool{"paid": true, "unpaid": true, "": false, "Paid": false} {
		if got := s.Valid(); got != want {
			t.Errorf("Status(%q).Valid() = %v, want %v", s, got, want)
		}
	}
}

func TestPaymentInputValidate(t *testing.T) {
	t.Parallel()
	cents := func(v int64) *int64 { return &v }
	for _, c := range []struct {
		name string
		in   membership.PaymentInput
		want apperr.Fields
	}{
		{"OK", membership.PaymentInput{Method: "cash", AmountCents: cents(2000)}, apperr.Fields{}},
		{"OKAboveDues", membership.PaymentInput{Method: "card", AmountCents: cents(100_000_00)}, apperr.Fields{}},
		{"ErrMethod", membership.PaymentInput{Method: "shop", AmountCents: cents(2000)}, apperr.Fields{"method": "must be cash, etransfer or card"}},
		{"ErrNoAmount", membership.PaymentInput{Method: "cash"}, apperr.Fields{"amount_cents": "is required"}},
		{"ErrBelowDues", membership.PaymentInput{Method: "etransfer", AmountCents: cents(1999)}, apperr.Fields{"amount_cents": "must be at least the dues ($20.00)"}},
		{"ErrTooMuch", membership.PaymentInput{Method: "cash", AmountCents: cents(100_000_01)}, apperr.Fields{"amount_cents": "must be at most 10000000"}},
		{"ErrBoth", membership.PaymentInput{}, apperr.Fields{"method": "must be cash, etransfer or card", "amount_cents": "is required"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			in := c.in
			in.DuesCents = 2000
			if got := in.Validate(); !maps.Equal(got, c.want) {
				t.Errorf("Validate() = %v, want %v", got, c.want)
			}
		})
	}
}

func TestMatchInputValidate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		email, want string
		ok          bool
	}{
		{"  ana@x.test ", "ana@x.test", true},
		{"", "", false},
		{"   ", "", false},
		{"ana", "ana", false},
		{string(bytes.Repeat([]byte("a"), 250)) + "@x.test", "", false},
	} {
		in := membership.MatchInput{Email: c.email}
		f := in.Validate()
		if ok := len(f) == 0; ok != c.ok {
			t.Errorf("Validate(%q) = %v, want ok %v", c.email, f, c.ok)
		}
		if c.ok && in.Email != c.want {
			t.Errorf("Validate(%q) left %q, want %q", c.email, in.Email, c.want)
		}
	}
}

func TestListFilterValidate(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		name   string
		in     membership.ListFilter
		wantQ  *string
		fields []string
	}{
		{"None", membership.ListFilter{}, nil, nil},
		{"Status", membership.ListFilter{Status: str("paid")}, nil, nil},
		{"ErrStatus", membership.ListFilter{Status: str("PAID")}, nil, []string{"status"}},
		{"BlankSearchIsNone", membership.ListFilter{Q: str("   ")}, nil, nil},
		{"SearchTrimmed", membership.ListFilter{Q: str("  ana ")}, str("ana"), nil},
		{"SearchLiteral", membership.ListFilter{Q: str(`50%_a\b`)}, str(`50\%\_a\\b`), nil},
		{"ErrLongSearch", membership.ListFilter{Q: str(string(bytes.Repeat([]byte("a"), 201)))}, nil, []string{"q"}},
		{"Term", membership.ListFilter{TermID: uuid.NewString()}, nil, nil},
		{"ErrTerm", membership.ListFilter{TermID: "2026"}, nil, []string{"term_id"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := c.in
			fields := f.Validate()
			if len(fields) != len(c.fields) {
				t.Fatalf("Validate() = %v, want errors for %v", fields, c.fields)
			}
			for _, name := range c.fields {
				if _, ok := fields[name]; !ok {
					t.Errorf("no error for %s in %v", name, fields)
				}
			}
			if got, want := deref(f.Q), deref(c.wantQ); c.fields == nil && got != want {
				t.Errorf("search %v, want %v", got, want)
			}
		})
	}
	status := "archived"
	f := membership.ReceiptFilter{Status: &status}
	if got := f.Validate(); got["status"] != "must be one of processed, parked, rejected, processing, received, duplicate" {
		t.Errorf("ReceiptFilter.Validate() = %v", got)
	}
	for _, s := range membership.ReceiptStatuses() {
		v := string(s)
		if got := (&membership.ReceiptFilter{Status: &v}).Validate(); len(got) != 0 {
			t.Errorf("ReceiptFilter{%s}.Validate() = %v", s, got)
		}
	}
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func TestCheckQRSignatures(t *testing.T) {
	t.Parallel()
	signer := membership.QRSigner(bytes.Repeat([]byte{7}, 32))
	other := membership.QRSigner(bytes.Repeat([]byte{8}, 32))
	id := uuid.NewString()
	good, bad := signer.Sign(id), other.Sign(id)
	for _, c := range []struct {
		name string
		sigs []string
		ok   bool
	}{
		{"One", []string{good}, true},
		{"Both", []string{good, good}, true},
		{"ErrNone", nil, false},
		{"ErrWrongKey", []string{bad}, false},
		{"ErrOneOfTwoWrong", []string{good, bad}, false},
		{"ErrOtherID", []string{signer.Sign(uuid.NewString())}, false},
		{"ErrEmpty", []string{""}, false},
	} {
		err := membership.CheckQRSignatures(signer, id, c.sigs)
		if (err == nil) != c.ok || err != nil && err != membership.ErrBadQRSignature {
			t.Errorf("%s: %v, want ok %v", c.name, err, c.ok)
		}
	}
}
