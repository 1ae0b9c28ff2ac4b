package receipttest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"hackdesk/internal/platform/receipts"
)

func mustKey(tb testing.TB, domain string) ShopKey {
	tb.Helper()
	k, err := NewShopKey(domain, "dev")
	if err != nil {
		tb.Fatal(err)
	}
	return k
}

func mustSign(tb testing.TB, k ShopKey, raw []byte) []byte {
	tb.Helper()
	signed, err := k.Sign(raw)
	if err != nil {
		tb.Fatal(err)
	}
	return signed
}

// lookupOf answers with the keys' TXT records, and NXDOMAIN otherwise.
func lookupOf(keys ...ShopKey) receipts.LookupTXT {
	records := map[string][]string{}
	for _, k := range keys {
		name, value := k.TXTRecord()
		records[name] = append(records[name], value)
	}
	return func(domain string) ([]string, error) {
		if vs, ok := records[domain]; ok {
			return vs, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: domain, IsNotFound: true}
	}
}

func TestSignHeaderKeys(t *testing.T) {
	t.Parallel()
	k := mustKey(t, DevShopDomain)
	cases := []struct {
		name string
		raw  []byte
		want []string
	}{
		{"Sample", Sample{Email: "jane@example.com"}.Build(), []string{"From", "To", "Subject", "Date", "Message-ID", "Content-Type", "MIME-Version", "Content-Transfer-Encoding"}},
		{"Minimal", []byte("X-Other: 1\r\nSubject: hi\nFrom: receipts@shop.hackdesk.test\n\nbody\n"), []string{"From", "Subject"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			signed := mustSign(t, k, c.raw)
			if !bytes.HasPrefix(signed, []byte("DKIM-Signature:")) {
				t.Fatalf("signed message starts %q", signed[:min(40, len(signed))])
			}
			verifs, err := dkim.VerifyWithOptions(bytes.NewReader(signed), &dkim.VerifyOptions{LookupTXT: lookupOf(k)})
			if err != nil || len(verifs) != 1 || verifs[0].Err != nil {
				t.Fatalf("verify: %v %+v", err, verifs)
			}
			if got := verifs[0].HeaderKeys; !slices.Equal(got, c.want) {
				t.Errorf("h= %v, want %v", got, c.want)
			}
			if !bytes.Contains(signed, []byte("a=ed25519-sha256")) || !bytes.Contains(signed, []byte("c=relaxed/relaxed")) {
				t.Errorf("want a=ed25519-sha256 and c=relaxed/relaxed:\n%s", signed)
			}
		})
	}
	if _, err := k.Sign([]byte("Subject: no sender\r\n\r\nbody\r\n")); err == nil {
		t.Error("Sign without From: no error")
	}
	if _, err := (ShopKey{Domain: DevShopDomain, Selector: "dev"}).Sign(Sample{}.Build()); err == nil {
		t.Error("Sign without a key: no error")
	}
}

func TestShopKeyTXT(t *testing.T) {
	t.Parallel()
	k := mustKey(t, DevShopDomain)
	name, value := k.TXTRecord()
	if name != "dev._domainkey.shop.hackdesk.test" {
		t.Errorf("name %q", name)
	}
	p, ok := strings.CutPrefix(value, "v=DKIM1; k=ed25519; p=")
	if !ok {
		t.Fatalf("value %q", value)
	}
	pub, err := base64.StdEncoding.DecodeString(p)
	if err != nil || !bytes.Equal(pub, k.Key.Public().(ed25519.PublicKey)) {
		t.Errorf("p= is not the public key: %v", err)
	}

	other := mustKey(t, "evil.test")
	path := filepath.Join(t.TempDir(), "dkim.txt")
	if err := WriteTXTFile(path, k, other); err != nil {
		t.Fatal(err)
	}
	assertMode(t, path, 0o600)
	lookup, err := receipts.TXTFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []ShopKey{k, other} {
		name, value := key.TXTRecord()
		if got, err := lookup(name); err != nil || !slices.Equal(got, []string{value}) {
			t.Errorf("lookup(%q) = %q, %v; want %q", name, got, err, value)
		}
	}
	if err := receipts.VerifyDKIM(mustSign(t, k, Sample{Email: "jane@example.com"}.Build()), DevShopDomain, lookup); err != nil {
		t.Errorf("verify with the written file: %v", err)
	}

	for _, bad := range [][2]string{{"", "dev"}, {"shop..test", "dev"}, {"shop.test", ""}, {"shop.test", "a b"}, {"-shop.test", "dev"}} {
		if _, err := NewShopKey(bad[0], bad[1]); err == nil {
			t.Errorf("NewShopKey(%q, %q): no error", bad[0], bad[1])
		}
	}
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s: mode %v, want %v", path, got, want)
	}
}

func TestLoadOrCreateShopKey(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sub", "shop.pem")
	k1, err := LoadOrCreateShopKey(path, DevShopDomain, "dev")
	if err != nil {
		t.Fatal(err)
	}
	assertMode(t, path, 0o600)
	k2, err := LoadOrCreateShopKey(path, "Shop.Hackdesk.Test", "dev")
	if err != nil {
		t.Fatal(err)
	}
	if !k1.Key.Equal(k2.Key) {
		t.Error("the second load made a new key")
	}
	if k2.Domain != DevShopDomain || k2.Selector != "dev" {
		t.Errorf("loaded %s/%s", k2.Domain, k2.Selector)
	}
	if err := receipts.VerifyDKIM(mustSign(t, k2, Sample{Email: "jane@example.com"}.Build()), DevShopDomain, lookupOf(k1)); err != nil {
		t.Errorf("signed by the loaded key, verified with the created: %v", err)
	}

	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(ec)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{
		"NotPEM":  []byte("not a key"),
		"BadDER":  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("junk")}),
		"ECDSA":   pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}),
		"RSAType": pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: der}),
	} {
		p := filepath.Join(t.TempDir(), "bad.pem")
		if err := os.WriteFile(p, content, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadOrCreateShopKey(p, DevShopDomain, "dev"); err == nil {
			t.Errorf("%s: no error", name)
		}
		if got, _ := os.ReadFile(p); !bytes.Equal(got, content) {
			t.Errorf("%s: the file was overwritten", name)
		}
	}
}

func TestSampleDefaults(t *testing.T) {
	t.Parallel()
	raw := Sample{Email: "jane@example.com", TermName: "2026-2027"}.Build()
	if !bytes.HasPrefix(raw, []byte("From: receipts@shop.hackdesk.test\r\n")) {
		t.Errorf("no From: receipts@%s header:\n%s", DevShopDomain, raw)
	}
	if bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\n")) {
		t.Error("a bare LF in the built message")
	}
	r, err := receipts.Parse(raw)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if r.TotalCents != 2000 || r.Items[0].UnitCents != 2000 {
		t.Errorf("amount %d/%d, want 2000", r.TotalCents, r.Items[0].UnitCents)
	}
	if len(r.TransactionID) != 11 || !strings.HasPrefix(r.TransactionID, "TX-") || strings.ToUpper(r.TransactionID) != r.TransactionID {
		t.Errorf("TransactionID %q, want TX-XXXXXXXX", r.TransactionID)
	}
	if len(r.OrderNumber) != 6 || strings.Trim(r.OrderNumber, "0123456789") != "" {
		t.Errorf("OrderNumber %q, want six digits", r.OrderNumber)
	}
	if age := time.Since(r.Date); age < 0 || age > 2*time.Minute {
		t.Errorf("Date %v, want about now", r.Date)
	}
	if r.ShopDomain != DevShopDomain {
		t.Errorf("ShopDomain %q", r.ShopDomain)
	}
	again, _ := receipts.Parse(Sample{Email: "jane@example.com"}.Build())
	if again.TransactionID == r.TransactionID {
		t.Errorf("two builds share transaction ID %s", r.TransactionID)
	}
	if got := again.MembershipTerm(); got != "" || again.Items[0].Description != "Club Membership" {
		t.Errorf("no TermName: item %q, term %q", again.Items[0].Description, got)
	}
}

func TestSampleInjection(t *testing.T) {
	t.Parallel()
	raw := Sample{Email: "jane@example.com\r\nBcc: all@example.com\nTotal paid: $1.00 CAD"}.Build()
	if bytes.Contains(raw, []byte("\nBcc:")) || bytes.Contains(raw, []byte("\nTotal paid: $1.00")) {
		t.Fatalf("newline in Email started a new line:\n%s", raw)
	}
}

func TestSampleUnknownEncoding(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("Build with Encoding \"uuencode\" did not panic")
		}
	}()
	Sample{Email: "jane@example.com", Encoding: "uuencode"}.Build()
}

func TestWebhookForm(t *testing.T) {
	t.Parallel()
	key := []byte("webhook-key")
	now := time.Unix(1_800_000_000, 0)
	mime := Sample{Email: "jane@example.com"}.Build()
	f := WebhookForm(key, mime, now)
	if got := f.Get("timestamp"); got != "1800000000" {
		t.Errorf("timestamp %q", got)
	}
	token := f.Get("token")
	if _, err := hex.DecodeString(token); err != nil || len(token) != 50 {
		t.Errorf("token %q, want 50 hex characters", token)
	}
	if got := f.Get("body-mime"); got != string(mime) {
		t.Errorf("body-mime differs from the message")
	}
	if err := receipts.VerifyWebhook(key, f.Get("timestamp"), token, f.Get("signature"), now.Add(time.Minute), 5*time.Minute); err != nil {
		t.Errorf("VerifyWebhook of the form: %v", err)
	}
	if other := WebhookForm(key, mime, now); other.Get("token") == token {
		t.Error("two forms share a token")
	}
	if len(f) != 4 {
		t.Errorf("fields %v, want timestamp, token, signature, body-mime", f)
	}
}
