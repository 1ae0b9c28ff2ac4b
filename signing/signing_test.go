package signing

import (
	"encoding/base64"
	"strings"
	"testing"
)

var master = []byte(strings.Repeat("k", 32))

func TestSignVerify(t *testing.T) {
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
	s := New(master, PurposeUnsubscribe)
	tok := s.Seal("profile-1")
	got, err := s.Open(tok)
	if err != nil || got != "profile-1" {
		t.Fatalf("Open(Seal(x)) = %q, %v", got, err)
	}
	forged := base64.RawURLEncoding.EncodeToString([]byte("profile-2")) + tok[strings.Index(tok, "."):]
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
