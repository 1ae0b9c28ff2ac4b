package mail

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
)

// unsubscribe are the RFC 8058 headers a broadcast email carries.
var unsubscribe = map[string]string{
	"List-Unsubscribe":      "<https://hackdesk.test/api/unsubscribe?token=YWJj.c2ln>",
	"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
}

func TestCheckHeaders(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		headers map[string]string
		ok      bool
	}{
		{"OKNone", nil, true},
		{"OKUnsubscribe", unsubscribe, true},
		{"ErrEmptyName", map[string]string{"": "x"}, false},
		{"ErrNameWithColon", map[string]string{"X-A:B": "x"}, false},
		{"ErrNameWithSpace", map[string]string{"X A": "x"}, false},
		{"ErrDriverHeader", map[string]string{"subject": "x"}, false},
		{"ErrBcc", map[string]string{"Bcc": "eve@example.org"}, false},
		{"ErrValueNewline", map[string]string{"X-A": "x\r\nBcc: eve@example.org"}, false},
		{"ErrValueBareLF", map[string]string{"X-A": "x\nBcc: eve@example.org"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckHeaders(tc.headers)
			if (err == nil) != tc.ok {
				t.Fatalf("CheckHeaders(%q) = %v, want ok %v", tc.headers, err, tc.ok)
			}
			if err != nil && !IsPermanent(err) {
				t.Errorf("error %v is not permanent", err)
			}
		})
	}
}

func TestLogSenderHeaders(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	m := Message{Key: "k-1", From: "desk@example.org", To: "ada@example.org", Subject: "News", Text: "Body", Headers: unsubscribe}
	if _, err := NewLogSender(&buf).Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	want := "Subject: News\nList-Unsubscribe: <https://hackdesk.test/api/unsubscribe?token=YWJj.c2ln>\n" +
		"List-Unsubscribe-Post: List-Unsubscribe=One-Click\n\nBody\n"
	if !strings.Contains(buf.String(), want) {
		t.Fatalf("output %q does not contain %q", buf.String(), want)
	}
	m.Headers = map[string]string{"X-A": "a\nb"}
	if _, err := NewLogSender(&buf).Send(context.Background(), m); !IsPermanent(err) {
		t.Fatalf("a header with a line break: %v, want a permanent error", err)
	}
}

// recordingSender keeps the messages it is given.
type recordingSender struct{ got []Message }

func (r *recordingSender) Send(_ context.Context, m Message) (string, error) {
	r.got = append(r.got, m)
	return "id", nil
}

func TestWithHeaders(t *testing.T) {
	t.Parallel()
	var rec recordingSender
	s := WithHeaders(&rec, unsubscribe)
	orig := map[string]string{"X-Own": "1"}
	if _, err := s.Send(context.Background(), Message{Key: "k", Headers: orig}); err != nil {
		t.Fatal(err)
	}
	h := rec.got[0].Headers
	if len(h) != 3 || h["X-Own"] != "1" || h["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" {
		t.Fatalf("headers %v", h)
	}
	if len(orig) != 1 {
		t.Fatalf("the caller's map was changed: %v", orig)
	}
}

func TestSMTPSenderHeaders(t *testing.T) {
	t.Parallel()
	srv := startFakeSMTP(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m := Message{Key: "broadcast:1:2", From: "desk@hackdesk.test", To: "ada@example.org", Subject: "News", Text: "Body",
		Headers: unsubscribe}
	if _, err := newInsecureSender(t, srv.port()).Send(ctx, m); err != nil {
		t.Fatal(err)
	}
	data := srv.session(t).data
	for name, value := range unsubscribe {
		if want := name + ": " + value + "\n"; !strings.Contains(data, want) {
			t.Errorf("DATA does not contain %q; got:\n%s", want, data)
		}
	}

	m.Headers = map[string]string{"X-A": "a\r\nBcc: eve@example.org"}
	if _, err := newInsecureSender(t, srv.port()).Send(ctx, m); !IsPermanent(err) {
		t.Fatalf("a header with a line break: %v, want a permanent error before connecting", err)
	}
}

// fakeSES answers SESv2 SendEmail and keeps the request bodies.
type fakeSES struct {
	mu     sync.Mutex
	bodies [][]byte
}

func (f *fakeSES) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	f.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v2/email/outbound-emails" {
		http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"MessageId":"ses-1"}`))
}

func TestSESSenderHeaders(t *testing.T) {
	t.Parallel()
	fake := &fakeSES{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	s := &SESSender{client: sesv2.New(sesv2.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("AKID", "SECRET", ""),
	})}
	m := Message{Key: "broadcast:1:2", From: "desk@hackdesk.test", To: "ada@example.org", Subject: "News", Text: "Body",
		Headers: unsubscribe}
	id, err := s.Send(context.Background(), m)
	if err != nil || id != "ses-1" {
		t.Fatalf("Send = %q, %v", id, err)
	}
	var req struct {
		Content struct {
			Simple struct {
				Subject struct{ Data string }
				Headers []struct{ Name, Value string }
			}
		}
	}
	if err := json.Unmarshal(fake.bodies[0], &req); err != nil {
		t.Fatalf("request %s: %v", fake.bodies[0], err)
	}
	got := map[string]string{}
	for _, h := range req.Content.Simple.Headers {
		got[h.Name] = h.Value
	}
	if req.Content.Simple.Subject.Data != "News" || len(got) != 2 ||
		got["List-Unsubscribe"] != unsubscribe["List-Unsubscribe"] || got["List-Unsubscribe-Post"] != unsubscribe["List-Unsubscribe-Post"] {
		t.Fatalf("request %s", fake.bodies[0])
	}

	m.Headers = map[string]string{"To": "eve@example.org"}
	if _, err := s.Send(context.Background(), m); !IsPermanent(err) {
		t.Fatalf("a driver header: %v, want a permanent error", err)
	}
	if len(fake.bodies) != 1 {
		t.Fatalf("%d requests, want the refused message never sent", len(fake.bodies))
	}
}
