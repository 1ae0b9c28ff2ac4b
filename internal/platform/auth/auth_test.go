package auth

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests that hash run in order, not in parallel: they share the
// process's hashing slots with TestHashSlotsBound and TestHashSlotsBusy.
func TestPasswordHash(t *testing.T) {
	h, err := HashPassword(context.Background(), "correct horse", DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q is not the expected PHC form", h)
	}
	h2, _ := HashPassword(context.Background(), "correct horse", DefaultParams)
	if h == h2 {
		t.Fatal("two hashes of one password are equal: salt not random")
	}
	for _, c := range []struct {
		pw   string
		want bool
	}{{"correct horse", true}, {"correct horsf", false}, {"", false}} {
		got, err := VerifyPassword(context.Background(), c.pw, h)
		if err != nil || got != c.want {
			t.Errorf("VerifyPassword(%q) = %v, %v; want %v", c.pw, got, err, c.want)
		}
	}
}

// Parameters are read back from the stored hash, so hashes made under
// older (cheaper) parameters still verify.
func TestPasswordParamsFromHash(t *testing.T) {
	cheap := Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}
	h, err := HashPassword(context.Background(), "pw-12345", cheap)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h, "m=64,t=1,p=1") {
		t.Fatalf("hash %q does not carry its parameters", h)
	}
	ok, err := VerifyPassword(context.Background(), "pw-12345", h)
	if err != nil || !ok {
		t.Fatalf("verify = %v, %v", ok, err)
	}
}

func TestVerifyMalformed(t *testing.T) {
	t.Parallel()
	for _, h := range []string{
		"", "plain", "$argon2i$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=18$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=99999999,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=19456,t=2,p=1$!!$aGFzaGhhc2hoYXNoaGFzaA",
	} {
		if ok, err := VerifyPassword(context.Background(), "x", h); ok || err != ErrMalformedHash {
			t.Errorf("VerifyPassword on %q = %v, %v; want ErrMalformedHash", h, ok, err)
		}
	}
}

func TestCheckPassword(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

func TestCheckNewPassword(t *testing.T) {
	t.Parallel()
	const email, name = "Ada.Lovelace@example.com", "Ada Lovelace"
	for _, c := range []struct {
		pw      string
		wantWhy string // "" must pass; else a part of the reason
	}{
		{"correct horse battery", ""},
		{"analytical-engine", ""},
		{"x7$kQ9!mzP2#vL5@", ""},
		{"short", "at least 8 characters"},
		{strings.Repeat("x", 129), "at most 128 characters"},
		{"password123", "common words or passwords"},
		{"12345678", "too easy to guess"},
		{"qwertyuiop", "too easy to guess"},
		{"aaaaaaaaaaaa", "too easy to guess"},
		{"ada.lovelace@example.com", "your name or email address"},
		{"lovelace1815", "too easy to guess"},
	} {
		got := CheckNewPassword(c.pw, email, name)
		if c.wantWhy == "" && got != "" {
			t.Errorf("CheckNewPassword(%q) = %q, want accepted", c.pw, got)
		}
		if c.wantWhy != "" && !strings.Contains(got, c.wantWhy) {
			t.Errorf("CheckNewPassword(%q) = %q, want a reason with %q", c.pw, got, c.wantWhy)
		}
	}
}

// TestHashSlotsBound: many concurrent hashes never run more than the bound
// at once, and all of them finish.
func TestHashSlotsBound(t *testing.T) {
	// Long enough (tens of ms) for the scheduler to interleave them.
	cheap := Params{Memory: 16 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}
	hashSlots.ResetPeak()
	var wg sync.WaitGroup
	errs := make(chan error, 4*MaxConcurrentHashes)
	for range 4 * MaxConcurrentHashes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := HashPassword(context.Background(), "pw-12345", cheap); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("hash: %v", err)
	}
	if p := hashSlots.Peak(); p < 1 || p > int64(MaxConcurrentHashes) {
		t.Fatalf("peak of %d concurrent hashes, want 1..%d", p, MaxConcurrentHashes)
	}
	if MaxConcurrentHashes < 2 {
		t.Fatalf("MaxConcurrentHashes = %d, want at least 2", MaxConcurrentHashes)
	}
}

// TestHashSlotsBusy: with every slot taken, a hash waits SlotWait and then
// fails with ErrBusy; a cancelled caller stops waiting at once; a freed
// slot lets hashing go on.
func TestHashSlotsBusy(t *testing.T) {
	ctx := context.Background()
	release, err := HoldHashSlots(ctx, MaxConcurrentHashes)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := HashPassword(ctx, "pw-12345", DefaultParams); !errors.Is(err, ErrBusy) {
		t.Fatalf("hash while saturated: %v, want ErrBusy", err)
	}
	if took := time.Since(start); took < SlotWait || took > SlotWait+time.Second {
		t.Fatalf("gave up after %v, want about %v", took, SlotWait)
	}
	if _, err := VerifyPassword(ctx, "x", "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"); !errors.Is(err, ErrBusy) {
		t.Fatalf("verify while saturated: %v, want ErrBusy", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	start = time.Now()
	if err := SpendVerifyTime(cctx, "x"); !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
		t.Fatalf("cancelled wait: %v after %v, want context.Canceled at once", err, time.Since(start))
	}
	// A slot freed while a hash waits lets it through.
	done := make(chan error, 1)
	go func() {
		_, err := HashPassword(ctx, "pw-12345", Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32})
		done <- err
	}()
	time.Sleep(200 * time.Millisecond)
	release()
	if err := <-done; err != nil {
		t.Fatalf("hash after the slots were freed: %v", err)
	}
}
