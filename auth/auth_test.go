package auth

import (
	"strings"
	"testing"
)

func TestPasswordHash(t *testing.T) {
	h, err := HashPassword("correct horse", DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q is not the expected PHC form", h)
	}
	h2, _ := HashPassword("correct horse", DefaultParams)
	if h == h2 {
		t.Fatal("two hashes of one password are equal: salt not random")
	}
	for _, c := range []struct {
		pw   string
		want bool
	}{{"correct horse", true}, {"correct horsf", false}, {"", false}} {
		got, err := VerifyPassword(c.pw, h)
		if err != nil || got != c.want {
			t.Errorf("VerifyPassword(%q) = %v, %v; want %v", c.pw, got, err, c.want)
		}
	}
}

// Parameters are read back from the stored hash, so hashes made under
// older (cheaper) parameters still verify.
func TestPasswordParamsFromHash(t *testing.T) {
	cheap := Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	h, err := HashPassword("pw-12345", cheap)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h, "m=64,t=1,p=1") {
		t.Fatalf("hash %q does not carry its parameters", h)
	}
	ok, err := VerifyPassword("pw-12345", h)
	if err != nil || !ok {
		t.Fatalf("verify = %v, %v", ok, err)
	}
}

func TestVerifyMalformed(t *testing.T) {
	for _, h := range []string{
		"", "plain", "$argon2i$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=18$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=99999999,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=19456,t=2,p=1$!!$aGFzaGhhc2hoYXNoaGFzaA",
	} {
		if ok, err := VerifyPassword("x", h); ok || err != ErrMalformedHash {
			t.Errorf("VerifyPassword on %q = %v, %v; want ErrMalformedHash", h, ok, err)
		}
	}
}

func TestCheckPassword(t *testing.T) {
	for pw, bad := range map[string]bool{
		"short":                  true,
		"12345678":               false,
		"ééééééé":                true, // 7 characters, 14 bytes
		"éééééééé":               false,
		strings.Repeat("a", 128): false,
		strings.Repeat("a", 129): true,
		string([]byte{0xff, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}): true,
	} {
		if got := CheckPassword(pw) != ""; got != bad {
			t.Errorf("CheckPassword(%q) rejects = %v, want %v", pw, got, bad)
		}
	}
}

func TestToken(t *testing.T) {
	tok, hash, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if !PlausibleToken(tok) || len(hash) != 32 || string(HashToken(tok)) != string(hash) {
		t.Fatalf("token %q / hash %x inconsistent", tok, hash)
	}
	tok2, _, _ := NewToken()
	if tok == tok2 {
		t.Fatal("tokens repeat")
	}
	if PlausibleToken("short") || PlausibleToken(strings.Repeat("*", 43)) {
		t.Fatal("garbage accepted as plausible")
	}
}
