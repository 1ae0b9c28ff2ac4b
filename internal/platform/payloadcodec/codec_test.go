package payloadcodec_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"hackdesk/internal/platform/payloadcodec"
)

func key(b byte) string { return base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, 32)) }

func mustCodec(t *testing.T, env string) *payloadcodec.Codec {
	t.Helper()
	c, err := payloadcodec.FromEnv(env)
	if err != nil {
		t.Fatalf("FromEnv(%q): %v", env, err)
	}
	return c
}

func TestParseKeys(t *testing.T) {
	good := key(1)
	short := base64.StdEncoding.EncodeToString([]byte("too short"))
	tests := []struct {
		name    string
		env     string
		wantIDs []string
		wantErr string
	}{
		{"OK", "k1:" + good, []string{"k1"}, ""},
		{"Rotation", "k2:" + key(2) + ", k1:" + good, []string{"k2", "k1"}, ""},
		{"URLSafeUnpadded", "k1:" + base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{0xfb}, 32)), []string{"k1"}, ""},
		{"ErrEmpty", "  ", nil, "is empty"},
		{"ErrNoColon", good, nil, "entry 1 is not id:base64key"},
		{"ErrEmptyID", ":" + good, nil, "entry 1 is not id:base64key"},
		{"ErrBadID", "a b:" + good, nil, "key id must be"},
		{"ErrDuplicate", "k1:" + good + ",k1:" + key(2), nil, `"k1" appears twice`},
		{"ErrNotBase64", "k1:!!!", nil, `key "k1" is not base64`},
		{"ErrShort", "k1:" + short, nil, `key "k1" is 9 bytes`},
		{"ErrTrailingComma", "k1:" + good + ",", nil, "entry 2 is not id:base64key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keys, err := payloadcodec.ParseKeys(tt.env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), payloadcodec.Env) {
					t.Errorf("err %q does not name %s", err, payloadcodec.Env)
				}
				if strings.Contains(err.Error(), good) {
					t.Errorf("err %q prints key material", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, k := range keys {
				ids = append(ids, k.ID)
				if len(k.Secret) != 32 {
					t.Errorf("key %s: %d bytes", k.ID, len(k.Secret))
				}
			}
			if strings.Join(ids, ",") != strings.Join(tt.wantIDs, ",") {
				t.Errorf("ids = %v, want %v", ids, tt.wantIDs)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	c := mustCodec(t, "k1:"+key(1))
	dc := payloadcodec.DataConverter(c)
	type input struct {
		Email string
		Name  string
	}
	in := input{Email: "ada@example.org", Name: "Ada Lovelace"}
	p, err := dc.ToPayload(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(p.Metadata[converter.MetadataEncoding]); got != payloadcodec.Encoding {
		t.Errorf("encoding = %q, want %q", got, payloadcodec.Encoding)
	}
	if got := string(p.Metadata[payloadcodec.MetadataKeyID]); got != "k1" {
		t.Errorf("key id = %q, want k1", got)
	}
	for _, secret := range []string{"ada@example.org", "Ada Lovelace", "json/plain"} {
		if bytes.Contains(p.Data, []byte(secret)) {
			t.Errorf("ciphertext holds %q", secret)
		}
	}
	var out input
	if err := dc.FromPayload(p, &out); err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Errorf("round trip = %+v, want %+v", out, in)
	}
	// A fresh nonce each time: the same value never encrypts the same.
	p2, _ := dc.ToPayload(in)
	if bytes.Equal(p.Data, p2.Data) {
		t.Error("two encryptions of one value are equal")
	}
}

func TestPlaintextPassesThrough(t *testing.T) {
	plain, err := converter.GetDefaultDataConverter().ToPayload("recorded before encryption")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := payloadcodec.DataConverter(mustCodec(t, "k1:"+key(1))).FromPayload(plain, &got); err != nil {
		t.Fatal(err)
	}
	if got != "recorded before encryption" {
		t.Errorf("got %q", got)
	}
}

func TestRotation(t *testing.T) {
	old := mustCodec(t, "k1:"+key(1))
	rotated := mustCodec(t, "k2:"+key(2)+",k1:"+key(1))
	p, _ := payloadcodec.DataConverter(old).ToPayload("written under k1")
	var got string
	if err := payloadcodec.DataConverter(rotated).FromPayload(p, &got); err != nil || got != "written under k1" {
		t.Fatalf("rotated codec read %q, %v", got, err)
	}
	p2, _ := payloadcodec.DataConverter(rotated).ToPayload("x")
	if id := string(p2.Metadata[payloadcodec.MetadataKeyID]); id != "k2" {
		t.Errorf("rotated codec encrypts with %q, want k2", id)
	}
}

func TestMissingKeyNamesIt(t *testing.T) {
	p, _ := payloadcodec.DataConverter(mustCodec(t, "old-key:"+key(1))).ToPayload("x")
	var got string
	err := payloadcodec.DataConverter(mustCodec(t, "new-key:"+key(2))).FromPayload(p, &got)
	if err == nil || !strings.Contains(err.Error(), `"old-key"`) || !strings.Contains(err.Error(), payloadcodec.Env) {
		t.Fatalf("err = %v, want one naming key id old-key and %s", err, payloadcodec.Env)
	}
	if got != "" {
		t.Errorf("decoded %q despite the missing key", got)
	}
}

func TestTamperedOrWrongKeyMaterial(t *testing.T) {
	c := mustCodec(t, "k1:"+key(1))
	enc, _ := c.Encode([]*commonpb.Payload{{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"x"`)}})
	t.Run("ErrAlteredData", func(t *testing.T) {
		p := &commonpb.Payload{Metadata: enc[0].Metadata, Data: append([]byte(nil), enc[0].Data...)}
		p.Data[len(p.Data)-1] ^= 1
		if _, err := c.Decode([]*commonpb.Payload{p}); err == nil || !strings.Contains(err.Error(), "fails authentication") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrSameIDOtherMaterial", func(t *testing.T) {
		other := mustCodec(t, "k1:"+key(9))
		if _, err := other.Decode(enc); err == nil || !strings.Contains(err.Error(), `"k1"`) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrRelabelledKeyID", func(t *testing.T) {
		both := mustCodec(t, "k1:"+key(1)+",k2:"+key(1))
		p := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte(payloadcodec.Encoding), payloadcodec.MetadataKeyID: []byte("k2")}, Data: enc[0].Data}
		if _, err := both.Decode([]*commonpb.Payload{p}); err == nil {
			t.Fatal("a payload relabelled to another key id decoded")
		}
	})
	t.Run("ErrShort", func(t *testing.T) {
		p := &commonpb.Payload{Metadata: enc[0].Metadata, Data: []byte("abc")}
		if _, err := c.Decode([]*commonpb.Payload{p}); err == nil || !strings.Contains(err.Error(), "too short") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestFailureMessagesEncrypted(t *testing.T) {
	dc := payloadcodec.DataConverter(mustCodec(t, "k1:"+key(1)))
	fc := payloadcodec.FailureConverter(dc)
	f := fc.ErrorToFailure(temporal.NewApplicationError("no account for ada@example.org", "NotFound"))
	if strings.Contains(f.GetMessage(), "ada@example.org") || strings.Contains(f.GetStackTrace(), "ada@example.org") {
		t.Fatalf("failure message in clear: %q", f.GetMessage())
	}
	if f.GetEncodedAttributes() == nil {
		t.Fatal("no encoded attributes")
	}
	err := fc.FailureToError(f)
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || !strings.Contains(appErr.Error(), "ada@example.org") {
		t.Fatalf("decoded failure = %v", err)
	}
}
