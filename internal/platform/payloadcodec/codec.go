// Package payloadcodec encrypts every Temporal payload hackdesk writes
// (workflow inputs and results, signals, queries, memos, heartbeat details,
// failure messages) with AES-256-GCM, so the Temporal server, its database
// and everyone who opens the Temporal UI see ciphertext.
//
// Keys come from TEMPORAL_PAYLOAD_KEYS, "id:base64key,id2:base64key2": the
// first key encrypts, every key decrypts, and the key id travels in each
// payload's metadata, so a key rotates by putting a new one first and
// keeping the old ones until the histories that used them are gone.
// Payloads without the encryption mark (recorded before encryption was
// turned on) decode as they are.
package payloadcodec

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"
)

const (
	// Encoding marks an encrypted payload (metadata "encoding"), the name
	// Temporal's samples and codec servers use.
	Encoding = "binary/encrypted"
	// MetadataKeyID names the key that encrypted a payload.
	MetadataKeyID = "encryption-key-id"
	// Env is the variable the keys are read from.
	Env = "TEMPORAL_PAYLOAD_KEYS"
)

// keyIDPattern is what a key id may be: it is stored in every payload's
// metadata and printed in errors, so it stays short and plain.
var keyIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// Key is one AES-256 key and its id.
type Key struct {
	ID     string
	Secret []byte // 32 bytes
}

// ParseKeys reads a TEMPORAL_PAYLOAD_KEYS value. An empty or malformed list
// is an error that names the variable and, where it can, the bad entry
// (never the key material).
func ParseKeys(s string) ([]Key, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("%s is empty: give at least one key as id:base64 of 32 random bytes (e.g. k1:$(openssl rand -base64 32))", Env)
	}
	var keys []Key
	seen := map[string]bool{}
	for i, entry := range strings.Split(s, ",") {
		entry = strings.TrimSpace(entry)
		id, b64, ok := strings.Cut(entry, ":")
		if !ok || id == "" || b64 == "" {
			return nil, fmt.Errorf("%s: entry %d is not id:base64key", Env, i+1)
		}
		if !keyIDPattern.MatchString(id) {
			return nil, fmt.Errorf("%s: entry %d: the key id must be 1 to 64 letters, digits, '.', '_' or '-'", Env, i+1)
		}
		if seen[id] {
			return nil, fmt.Errorf("%s: key id %q appears twice", Env, id)
		}
		secret, err := decodeBase64(b64)
		if err != nil {
			return nil, fmt.Errorf("%s: key %q is not base64", Env, id)
		}
		if len(secret) != 32 {
			return nil, fmt.Errorf("%s: key %q is %d bytes; AES-256 needs 32", Env, id, len(secret))
		}
		seen[id] = true
		keys = append(keys, Key{ID: id, Secret: secret})
	}
	return keys, nil
}

// decodeBase64 accepts standard or URL-safe base64, padded or not.
func decodeBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}

// Codec is the AES-256-GCM converter.PayloadCodec.
type Codec struct {
	encryptWith string
	aeads       map[string]cipher.AEAD
}

var _ converter.PayloadCodec = (*Codec)(nil)

// New makes the codec: keys[0] encrypts, every key decrypts.
func New(keys []Key) (*Codec, error) {
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: no keys", Env)
	}
	c := &Codec{encryptWith: keys[0].ID, aeads: make(map[string]cipher.AEAD, len(keys))}
	for _, k := range keys {
		block, err := aes.NewCipher(k.Secret)
		if err != nil {
			return nil, fmt.Errorf("%s: key %q: %w", Env, k.ID, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("%s: key %q: %w", Env, k.ID, err)
		}
		c.aeads[k.ID] = aead
	}
	return c, nil
}

// FromEnv parses a TEMPORAL_PAYLOAD_KEYS value and makes the codec.
func FromEnv(value string) (*Codec, error) {
	keys, err := ParseKeys(value)
	if err != nil {
		return nil, err
	}
	return New(keys)
}

// EncryptingKeyID is the id of the key new payloads are encrypted with.
func (c *Codec) EncryptingKeyID() string { return c.encryptWith }

// Encode encrypts each payload whole (its metadata and data), the key id
// riding in the new payload's metadata. The key id is authenticated as
// additional data, so a payload cannot be passed off as another key's.
func (c *Codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	aead := c.aeads[c.encryptWith]
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("payload codec: marshal: %w", err)
		}
		nonce := make([]byte, aead.NonceSize())
		if _, err := rand.Read(nonce); err != nil {
			return nil, fmt.Errorf("payload codec: nonce: %w", err)
		}
		sealed := aead.Seal(nonce, nonce, plain, []byte(c.encryptWith))
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{
				converter.MetadataEncoding: []byte(Encoding),
				MetadataKeyID:              []byte(c.encryptWith),
			},
			Data: sealed,
		}
	}
	return out, nil
}

// Decode decrypts payloads that carry the encryption mark and passes the
// others through unchanged (histories recorded before encryption). A
// payload encrypted with a key that is not configured, or that fails
// authentication, is an error naming the key id (a task that meets it
// fails and is retried, so putting the key back resumes the workflow); it
// is never decoded to garbage.
func (c *Codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != Encoding {
			out[i] = p
			continue
		}
		id := string(p.GetMetadata()[MetadataKeyID])
		aead, ok := c.aeads[id]
		if !ok {
			return nil, fmt.Errorf("payload codec: payload encrypted with key id %q, which %s does not hold: %w", printable(id), Env, ErrUndecryptable)
		}
		data := p.GetData()
		if len(data) < aead.NonceSize()+aead.Overhead() {
			return nil, fmt.Errorf("payload codec: payload under key id %q is too short to be ciphertext: %w", printable(id), ErrUndecryptable)
		}
		nonce, sealed := data[:aead.NonceSize()], data[aead.NonceSize():]
		plain, err := aead.Open(nil, nonce, sealed, []byte(id))
		if err != nil {
			return nil, fmt.Errorf("payload codec: payload under key id %q fails authentication (wrong key material or altered data): %w", printable(id), ErrUndecryptable)
		}
		var orig commonpb.Payload
		if err := proto.Unmarshal(plain, &orig); err != nil {
			return nil, fmt.Errorf("payload codec: payload under key id %q does not hold a payload: %w", printable(id), ErrUndecryptable)
		}
		out[i] = &orig
	}
	return out, nil
}

// printable keeps a key id read from a payload fit for an error message.
func printable(id string) string {
	if keyIDPattern.MatchString(id) {
		return id
	}
	return "(malformed)"
}

// ErrUndecryptable is in the chain of every Decode error: a payload under
// a key the codec does not hold, or that fails authentication.
var ErrUndecryptable = errors.New("payload cannot be decrypted")

// DataConverter is the default data converter with every payload passing
// through the codec. Inside workflow code (a workflow's input, signals,
// activity and child results) a payload that cannot be decrypted panics
// instead of returning its error: the SDK then fails the workflow task,
// which Temporal retries, rather than the workflow (an error there would
// fail the run for good, when putting the key back into
// TEMPORAL_PAYLOAD_KEYS resumes it). Clients (the API, the codec server)
// get the error.
func DataConverter(c *Codec) converter.DataConverter {
	return workflowSafe{converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c)}
}

// workflowSafe hands workflow code a converter that panics on
// ErrUndecryptable (panicOnUndecryptable); everywhere else it is the
// plain converter.
type workflowSafe struct{ converter.DataConverter }

var _ converter.ContextAware = workflowSafe{}

func (w workflowSafe) WithWorkflowContext(ctx converter.WorkflowContext) converter.DataConverter {
	inner := w.DataConverter
	if ca, ok := inner.(converter.ContextAware); ok {
		inner = ca.WithWorkflowContext(ctx)
	}
	return panicOnUndecryptable{inner}
}

func (w workflowSafe) WithContext(ctx context.Context) converter.DataConverter {
	if ca, ok := w.DataConverter.(converter.ContextAware); ok {
		return ca.WithContext(ctx)
	}
	return w.DataConverter
}

// panicOnUndecryptable panics with the decode error (it names the key id)
// when a payload cannot be decrypted.
type panicOnUndecryptable struct{ converter.DataConverter }

func (p panicOnUndecryptable) FromPayload(payload *commonpb.Payload, valuePtr any) error {
	return undecryptablePanics(p.DataConverter.FromPayload(payload, valuePtr))
}

func (p panicOnUndecryptable) FromPayloads(payloads *commonpb.Payloads, valuePtrs ...any) error {
	return undecryptablePanics(p.DataConverter.FromPayloads(payloads, valuePtrs...))
}

func undecryptablePanics(err error) error {
	if errors.Is(err, ErrUndecryptable) {
		panic(err)
	}
	return err
}

// FailureConverter encodes failure messages and stack traces as payloads
// through the same converter, so an error that names a person is
// ciphertext in the history too.
func FailureConverter(dc converter.DataConverter) converter.FailureConverter {
	return temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
		DataConverter:          dc,
		EncodeCommonAttributes: true,
	})
}
