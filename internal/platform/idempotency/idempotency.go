// Package idempotency runs a request once per Idempotency-Key: the key is
// claimed for its caller and route in the request's transaction and the
// answer stored with it, so a retry gets the stored answer and runs
// nothing (no second email, no second broadcast).
package idempotency

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
)

// Header is the request header that carries the key.
const Header = "Idempotency-Key"

// MaxKey is the longest key accepted.
const MaxKey = 200

// Keep is how long a key and its answer are kept: a retry within a week
// gets the stored answer; after that the key is forgotten (deleted by the
// Sweep workflow, every ten minutes) and may be used afresh.
const Keep = 7 * 24 * time.Hour

// The errors the API answers as they are.
var (
	ErrKeyReused = apperr.WithMessage(apperr.Unprocessable, "Idempotency key reused",
		"This Idempotency-Key was used for a different request; use a new key")
	ErrBadKey = apperr.ValidationFailed(apperr.Fields{Header: "must be 1 to 200 printable ASCII characters"})
)

// Answer is a request's success: a status and a JSON body.
type Answer struct {
	Status int
	Body   any
}

// Request is one request to run once: its caller, its route, its key (""
// for none) and its decoded body, which a retry must repeat.
type Request struct {
	Actor uuid.UUID
	Route string
	Key   string
	Body  any
}

// Keys run requests on a store.
type Keys struct {
	store *db.Store
	log   *slog.Logger
}

// New runs requests on store; log (slog.Default() when nil) is its
// logger.
func New(store *db.Store, log *slog.Logger) *Keys {
	if log == nil {
		log = slog.Default()
	}
	return &Keys{store: store, log: log}
}

// Run runs fn in one transaction. With a key, the key is claimed for
// req's actor and route in that transaction and the answer stored with
// it: a retry of the same request gets the stored answer and runs
// nothing, while the same key with a different body is ErrKeyReused. A
// concurrent retry waits on the key's row until the first transaction
// ends. A failed request stores nothing, so it may be retried with its
// key. A malformed key is ErrBadKey.
func (k *Keys) Run(ctx context.Context, req Request, fn func(q *db.Queries) (Answer, error)) (Answer, error) {
	var out Answer
	if req.Key == "" {
		err := k.store.InTx(ctx, func(q *db.Queries) (err error) {
			out, err = fn(q)
			return err
		})
		return out, err
	}
	if !Valid(req.Key) {
		return Answer{}, ErrBadKey
	}
	canonical, err := json.Marshal(req.Body)
	if err != nil {
		return Answer{}, fmt.Errorf("idempotency: encode the request: %w", err)
	}
	hash := sha256.Sum256(append([]byte(req.Route+"\n"), canonical...))
	err = k.store.InTx(ctx, func(q *db.Queries) error {
		claimed, err := q.IdempotencyKeyClaim(ctx, db.IdempotencyKeyClaimParams{
			ActorID: req.Actor, Route: req.Route, Key: req.Key, RequestHash: hash[:]})
		if err != nil {
			return err
		}
		if claimed == 0 {
			prev, err := q.IdempotencyKeyGet(ctx, db.IdempotencyKeyGetParams{ActorID: req.Actor, Route: req.Route, Key: req.Key})
			if err != nil {
				return err
			}
			if !bytes.Equal(prev.RequestHash, hash[:]) {
				return ErrKeyReused
			}
			if prev.Status == nil {
				return errors.New("idempotency key committed without an answer")
			}
			out = Answer{Status: int(*prev.Status), Body: json.RawMessage(prev.Response)}
			return nil
		}
		if out, err = fn(q); err != nil {
			return err
		}
		body, err := json.Marshal(out.Body)
		if err != nil {
			return fmt.Errorf("idempotency: encode the answer: %w", err)
		}
		status := int32(out.Status)
		return q.IdempotencyKeyStore(ctx, db.IdempotencyKeyStoreParams{
			ActorID: req.Actor, Route: req.Route, Key: req.Key, Status: &status, Response: body})
	})
	return out, err
}

// Valid reports whether k is a key: 1 to MaxKey printable ASCII
// characters.
func Valid(k string) bool {
	if len(k) == 0 || len(k) > MaxKey {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return false
		}
	}
	return true
}
