// Package auth holds the account primitives: argon2id password hashes in
// PHC form (at most a few computed at once, see slots.go), opaque random
// tokens stored only as SHA-256, and password rules (strength.go).
package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id cost parameters.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32
	Threads uint8
	SaltLen int
	KeyLen  uint32
}

// DefaultParams is OWASP's minimum for argon2id: m=19 MiB, t=2, p=1.
var DefaultParams = Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// Password length rules (in characters).
const (
	MinPasswordLen = 8
	MaxPasswordLen = 128
)

// ErrMalformedHash is returned for a stored hash that is not a PHC argon2id
// string this package can read.
var ErrMalformedHash = errors.New("malformed password hash")

var b64 = base64.RawStdEncoding

// CheckPassword returns the reason a password breaks the length rule, or
// "". New passwords chosen by a person also go through CheckNewPassword.
func CheckPassword(pw string) string {
	n := utf8.RuneCountInString(pw)
	switch {
	case !utf8.ValidString(pw):
		return "must be valid text"
	case n < MinPasswordLen:
		return fmt.Sprintf("must be at least %d characters", MinPasswordLen)
	case n > MaxPasswordLen:
		return fmt.Sprintf("must be at most %d characters", MaxPasswordLen)
	}
	return ""
}

// HashPassword returns the PHC string of pw under p:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>. It waits for a hashing slot
// and fails with ErrBusy when none frees up in time.
func HashPassword(ctx context.Context, pw string, p Params) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	var key []byte
	if err := hashSlots.Do(ctx, func() {
		key = argon2.IDKey([]byte(pw), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	}); err != nil {
		return "", err
	}
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// VerifyPassword reports whether pw matches the PHC hash, using the
// parameters stored in the hash and a constant-time comparison. Like
// HashPassword it needs a hashing slot (ErrBusy when none frees up).
func VerifyPassword(ctx context.Context, pw, hash string) (bool, error) {
	parts := strings.Split(hash, "$")
	// "", "argon2id", "v=19", "m=..,t=..,p=..", salt, key
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return false, ErrMalformedHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, ErrMalformedHash
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return false, ErrMalformedHash
	}
	if p.Memory < 8 || p.Memory > 1<<22 || p.Time < 1 || p.Time > 16 || p.Threads < 1 {
		return false, ErrMalformedHash // refuse parameters that would stall the server
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return false, ErrMalformedHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) < 16 || len(want) > 64 {
		return false, ErrMalformedHash
	}
	var got []byte
	if err := hashSlots.Do(ctx, func() {
		got = argon2.IDKey([]byte(pw), salt, p.Time, p.Memory, p.Threads, uint32(len(want)))
	}); err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

var (
	dummyOnce sync.Once
	dummyHash string
)

// SpendVerifyTime does the work of one VerifyPassword against a hash made
// with DefaultParams, so that a login for an unknown email takes as long as
// one with a wrong password. It returns ErrBusy (or ctx's error) when no
// hashing slot frees up, like VerifyPassword.
func SpendVerifyTime(ctx context.Context, pw string) error {
	dummyOnce.Do(func() {
		// Made once, without waiting for a slot: the hash of a fixed
		// string must exist before any verification can use it.
		salt := make([]byte, DefaultParams.SaltLen)
		_, _ = rand.Read(salt)
		key := argon2.IDKey([]byte("hackdesk-dummy-password"), salt, DefaultParams.Time, DefaultParams.Memory, DefaultParams.Threads, DefaultParams.KeyLen)
		dummyHash = fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, DefaultParams.Memory,
			DefaultParams.Time, DefaultParams.Threads, b64.EncodeToString(salt), b64.EncodeToString(key))
	})
	_, err := VerifyPassword(ctx, pw, dummyHash)
	return err
}
