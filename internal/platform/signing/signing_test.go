package signing

import (
	"encoding/base64"
	"strings"
	"testing"
)

var master = []byte(strings.Repeat("k", 32))

func TestSignVerify(t *testing.T) {
	t.Parallel()
	s := New(master, PurposeMembershipQR)
	sig := s.Sign("abc")
	if err := s.Verify("abc", sig); err != nil {
		t.Fatalf("Verify(own signature) = %v", err)
	}
	if err := s.Verify("abd", sig); err != ErrBadSignature {
		t.Fatalf("Verify(other message) = %v, want ErrBadSignature", err)
	}
	if err := New(master, PurposeUnsubscribe).Verify("abc", sig); err != ErrBadSignature {
		t.Fatalf("a signature of another purpose verified: %v", err)
	}
	if err := s.Verify("abc", sig+"A"); err != ErrBadSignature {
		t.Fatalf("a longer signature verified: %v", err)
	}
	if err := s.Verify("abc", "%%"); err != ErrBadSignature {
		t.Fatalf("non-base64 signature: %v", err)
	}
}

func TestSealOpen(t *testing.T) {
	t.Parallel()
	s := New(master, PurposeUnsubscribe)
	tok := s.Seal("profile-1")
	got, err := s.Open(tok)
	if err != nil || got != "profile-1" {
		t.Fatalf("Open(Seal(x)) = %q, %v", got, err)
	}
	_, sig, _ := strings.Cut(tok, ".")
	forged := base64.RawURLEncoding.EncodeToString([]byte("profile-2")) + "." + sig
	if _, err := s.Open(forged); err != ErrBadSignature {
		t.Fatalf("a token with another message opened: %v", err)
	}
	for _, bad := range []string{"", "x", ".", "a.b", tok + "x"} {
		if _, err := s.Open(bad); err != ErrBadSignature {
			t.Errorf("Open(%q) = %v, want ErrBadSignature", bad, err)
		}
	}
}

func TestDecodeKey(t *testing.T) {
	t.Parallel()
	k := base64.StdEncoding.EncodeToString(master)
	if b, err := DecodeKey(k); err != nil || string(b) != string(master) {
		t.Fatalf("DecodeKey = %q, %v", b, err)
	}
	if _, err := DecodeKey(base64.StdEncoding.EncodeToString(master[:31])); err == nil {
		t.Fatal("a 31-byte key was accepted")
	}
	if _, err := DecodeKey("not base64!"); err == nil {
		t.Fatal("non-base64 was accepted")
	}
}

// TestVerifyOneSpelling: a signature verifies in exactly one spelling,
// the unpadded base64url Sign returns. The last character of 43 carries
// two spare bits, so a lenient decoder would take four spellings; padding
// and the standard alphabet are other spellings of the same bytes.
func TestVerifyOneSpelling(t *testing.T) {
	t.Parallel()
	s := New(master, PurposeMembershipQR)
	for _, msg := range []string{"abc", "0b5f2c1e-4a7d-4f0e-9d0a-3c2b1a000000", "x"} {
		sig := s.Sign(msg)
		raw, err := base64.RawURLEncoding.DecodeString(sig)
		if err != nil {
			t.Fatal(err)
		}
		var other []string
		// Every other last character that decodes to the same bytes.
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
		for _, c := range alphabet {
			v := sig[:len(sig)-1] + string(c)
			if v == sig {
				continue
			}
			if b, err := base64.RawURLEncoding.DecodeString(v); err == nil && string(b) == string(raw) {
				other = append(other, v)
			}
		}
		if len(other) == 0 {
			t.Fatalf("no other lenient spelling of %q found; the test proves nothing", sig)
		}
		other = append(other,
			base64.URLEncoding.EncodeToString(raw),    // padded
			base64.RawStdEncoding.EncodeToString(raw), // standard alphabet (when it differs)
			base64.StdEncoding.EncodeToString(raw),
			" "+sig, sig+"\n")
		for _, v := range other {
			if v == sig {
				continue
			}
			if err := s.Verify(msg, v); err != ErrBadSignature {
				t.Errorf("Verify(%q, %q) = %v, want ErrBadSignature (the signature is %q)", msg, v, err, sig)
			}
		}
		if err := s.Verify(msg, sig); err != nil {
			t.Errorf("Verify(own signature) = %v", err)
		}
	}
}

// TestOpenOneSpelling: a sealed token opens in exactly its own spelling.
func TestOpenOneSpelling(t *testing.T) {
	t.Parallel()
	s := New(master, PurposeUnsubscribe)
	tok := s.Seal("profile-1") // "profile-1" is 9 bytes: 12 characters, no spare bits
	tok2 := s.Seal("profile-12")
	enc, sig, _ := strings.Cut(tok2, ".")
	// 10 bytes: 14 characters, the last carrying 4 spare bits.
	last := enc[len(enc)-1]
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" {
		if byte(c) == last {
			continue
		}
		v := enc[:len(enc)-1] + string(c)
		if b, err := base64.RawURLEncoding.DecodeString(v); err == nil && string(b) == "profile-12" {
			if _, err := s.Open(v + "." + sig); err != ErrBadSignature {
				t.Errorf("Open(%q) = %v, want ErrBadSignature", v+"."+sig, err)
			}
		}
	}
	if got, err := s.Open(tok); err != nil || got != "profile-1" {
		t.Fatalf("Open(Seal(x)) = %q, %v", got, err)
	}
}
