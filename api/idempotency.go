package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/db"
)

// maxIdempotencyKey is the longest Idempotency-Key header accepted.
const maxIdempotencyKey = 200

// idempotencyKeep is how long a key and its answer are kept: a retry
// within a week gets the stored answer; after that the key is forgotten
// (swept at most once an hour per API process) and may be used afresh.
const idempotencyKeep = 7 * 24 * time.Hour

var (
	errKeyReused = apperr.WithMessage(apperr.Unprocessable, "Idempotency key reused",
		"This Idempotency-Key was used for a different request; use a new key")
	errBadKey = apperr.ValidationFailed(apperr.Fields{"Idempotency-Key": "must be 1 to 200 printable ASCII characters"})
)

// answer is a handler's success: a status and a JSON body.
type answer struct {
	status int
	body   any
}

// idempotentTx runs fn in one transaction. When the request carries an
// Idempotency-Key header, the key is claimed for actor and route in that
// transaction and the answer stored with it: a retry of the same request
// gets the stored answer and runs nothing (so it sends no second email),
// while the same key with a different request body is 422. A concurrent
// retry waits on the key's row until the first transaction ends. A failed
// request stores nothing, so it may be retried with its key.
func (s *Server) idempotentTx(ctx context.Context, r *http.Request, actor uuid.UUID, route string, req any,
	fn func(q *db.Queries) (answer, error)) (answer, error) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		var out answer
		err := s.store.InTx(ctx, func(q *db.Queries) (err error) {
			out, err = fn(q)
			return err
		})
		return out, err
	}
	if !validIdempotencyKey(key) {
		return answer{}, errBadKey
	}
	s.idemSweep.Maybe(time.Hour, s.log, "expired idempotency keys", func(ctx context.Context) (int64, error) {
		return s.store.IdempotencyKeysPrune(ctx, time.Now().Add(-idempotencyKeep))
	})
	canonical, err := json.Marshal(req)
	if err != nil {
		return answer{}, err
	}
	hash := sha256.Sum256(append([]byte(route+"\n"), canonical...))
	var out answer
	err = s.store.InTx(ctx, func(q *db.Queries) error {
		claimed, err := q.IdempotencyKeyClaim(ctx, db.IdempotencyKeyClaimParams{
			ActorID: actor, Route: route, Key: key, RequestHash: hash[:]})
		if err != nil {
			return err
		}
		if claimed == 0 {
			prev, err := q.IdempotencyKeyGet(ctx, db.IdempotencyKeyGetParams{ActorID: actor, Route: route, Key: key})
			if err != nil {
				return err
			}
			if !bytes.Equal(prev.RequestHash, hash[:]) {
				return errKeyReused
			}
			if prev.Status == nil {
				return errors.New("idempotency key committed without an answer")
			}
			out = answer{status: int(*prev.Status), body: json.RawMessage(prev.Response)}
			return nil
		}
		if out, err = fn(q); err != nil {
			return err
		}
		body, err := json.Marshal(out.body)
		if err != nil {
			return err
		}
		status := int32(out.status)
		return q.IdempotencyKeyStore(ctx, db.IdempotencyKeyStoreParams{
			ActorID: actor, Route: route, Key: key, Status: &status, Response: body})
	})
	return out, err
}

func validIdempotencyKey(k string) bool {
	if len(k) == 0 || len(k) > maxIdempotencyKey {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x21 || k[i] > 0x7e {
			return false
		}
	}
	return true
}
