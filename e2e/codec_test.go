package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"hackdesk/dev/testenv"
	"hackdesk/internal/platform/payloadcodec"
)

// The Temporal server keeps only ciphertext: a sign-up's SendEmail history,
// read raw from the server, names nobody; the codec route, as the Temporal
// UI calls it, gives a signed-in superadmin the input in clear and refuses
// everyone else.
func TestCodecServer(t *testing.T) {
	t.Parallel()
	cfg := testenv.Config(t)
	cfg.TemporalUIURL = "http://ui.hackdesk.test" // same-site with PUBLIC_URL http://hackdesk.test
	a := testenv.App(t, cfg)
	anon := &client{t: t, base: a.URL()}
	email := "ada.codec@example.org"
	anon.expect(http.StatusCreated, "POST", "/api/auth/signup",
		map[string]string{"email": email, "password": "analytical-engine-1843", "display_name": "Ada Lovelace"})

	// The sign-up's SendEmail run, raw: the history service answers what
	// the server stores, with no codec on the way.
	ctx := context.Background()
	var input *commonpb.Payload
	var id string
	testenv.Eventually(t, 60*time.Second, func() (bool, string) {
		resp, err := a.Temporal.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query: fmt.Sprintf("WorkflowType = 'SendEmail' AND TaskQueue = '%s' AND ExecutionStatus = 'Completed'", cfg.TaskQueue)})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Executions) == 0 {
			return false, "no completed SendEmail run"
		}
		id = resp.Executions[0].Execution.WorkflowId
		return true, ""
	})
	if strings.Contains(id, email) || strings.Contains(id, "Lovelace") {
		t.Fatalf("workflow ID %q names the person", id)
	}
	hist, err := a.Temporal.WorkflowService().GetWorkflowExecutionHistory(ctx, &workflowservice.GetWorkflowExecutionHistoryRequest{
		Namespace: cfg.TemporalNamespace, Execution: &commonpb.WorkflowExecution{WorkflowId: id}})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := protojson.Marshal(hist.GetHistory())
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{email, "Lovelace", "json/plain"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("the raw history holds %q", secret)
		}
	}
	for _, ev := range hist.GetHistory().GetEvents() {
		if attrs := ev.GetWorkflowExecutionStartedEventAttributes(); attrs != nil {
			input = attrs.GetInput().GetPayloads()[0]
		}
	}
	if got := string(input.GetMetadata()["encoding"]); got != payloadcodec.Encoding {
		t.Fatalf("input encoding %q, want %q", got, payloadcodec.Encoding)
	}
	body, err := protojson.Marshal(&commonpb.Payloads{Payloads: []*commonpb.Payload{input}})
	if err != nil {
		t.Fatal(err)
	}

	super := as(t, a, anon, account(t, a, "root.codec@example.org", "Root", "superadmin"))
	admin := as(t, a, anon, account(t, a, "admin.codec@example.org", "Admin", "admin"))
	decoded := func(r response) *commonpb.Payload {
		t.Helper()
		var out commonpb.Payloads
		if err := protojson.Unmarshal(r.Body, &out); err != nil || len(out.Payloads) != 1 {
			t.Fatalf("decode answer %s: %v", r.Body, err)
		}
		return out.Payloads[0]
	}

	t.Run("OKSuperadminBearer", func(t *testing.T) {
		for _, path := range []string{"/api/temporal/codec/decode", "/api/temporal/codec/" + cfg.TemporalNamespace + "/decode"} {
			p := decoded(super.expect(http.StatusOK, "POST", path, body))
			if enc := string(p.GetMetadata()["encoding"]); enc != "json/plain" {
				t.Fatalf("%s: decoded encoding %q", path, enc)
			}
			// The input names the email by its key only (the address is in
			// the recorded email, not the history).
			if !bytes.Contains(p.GetData(), []byte(`"Key":"`)) || bytes.Contains(p.GetData(), []byte(email)) {
				t.Fatalf("%s: decoded input %s", path, p.GetData())
			}
		}
	})
	t.Run("OKEncodeRoundTrip", func(t *testing.T) {
		plain, _ := protojson.Marshal(&commonpb.Payloads{Payloads: []*commonpb.Payload{
			{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"hello"`)}}})
		enc := decoded(super.expect(http.StatusOK, "POST", "/api/temporal/codec/encode", plain))
		if string(enc.GetMetadata()["encoding"]) != payloadcodec.Encoding || bytes.Contains(enc.GetData(), []byte("hello")) {
			t.Fatalf("encoded %v", enc)
		}
		again, _ := protojson.Marshal(&commonpb.Payloads{Payloads: []*commonpb.Payload{enc}})
		if back := decoded(super.expect(http.StatusOK, "POST", "/api/temporal/codec/decode", again)); string(back.GetData()) != `"hello"` {
			t.Fatalf("round trip %s", back.GetData())
		}
	})
	t.Run("ErrAdmin", func(t *testing.T) {
		admin.expect(http.StatusForbidden, "POST", "/api/temporal/codec/decode", body)
	})
	t.Run("ErrAnonymous", func(t *testing.T) {
		anon.expect(http.StatusUnauthorized, "POST", "/api/temporal/codec/decode", body)
	})
	t.Run("ErrOtherNamespace", func(t *testing.T) {
		super.expect(http.StatusNotFound, "POST", "/api/temporal/codec/another/decode", body)
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		big := []byte(`{"payloads":[{"data":"` + strings.Repeat("A", 4<<20) + `"}]}`)
		super.expect(http.StatusRequestEntityTooLarge, "POST", "/api/temporal/codec/decode", big)
	})

	// The browser side: the UI's origin with the session cookie ("include
	// credentials") may; any other origin gets no CORS and no decode.
	cookie := func(origin, site string, method string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, a.URL()+"/api/temporal/codec/decode", bytes.NewReader(body))
		req.Header.Set("Cookie", "hackdesk_session="+super.token)
		req.Header.Set("Origin", origin)
		req.Header.Set("Sec-Fetch-Site", site)
		if method == http.MethodOptions {
			req.Header.Set("Access-Control-Request-Method", "POST")
			req.Header.Set("Access-Control-Request-Headers", "content-type,x-namespace")
		} else {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	t.Run("OKUIOriginCookie", func(t *testing.T) {
		pre := cookie(cfg.TemporalUIURL, "same-site", http.MethodOptions)
		if pre.StatusCode != http.StatusNoContent || pre.Header.Get("Access-Control-Allow-Origin") != cfg.TemporalUIURL ||
			pre.Header.Get("Access-Control-Allow-Credentials") != "true" || !strings.Contains(pre.Header.Get("Access-Control-Allow-Methods"), "POST") {
			t.Fatalf("preflight %d %v", pre.StatusCode, pre.Header)
		}
		r := cookie(cfg.TemporalUIURL, "same-site", http.MethodPost)
		if r.StatusCode != http.StatusOK || r.Header.Get("Access-Control-Allow-Origin") != cfg.TemporalUIURL {
			t.Fatalf("decode from the UI: %d %v", r.StatusCode, r.Header)
		}
	})
	t.Run("ErrOtherOriginNoCORS", func(t *testing.T) {
		pre := cookie("http://evil.example", "cross-site", http.MethodOptions)
		if pre.Header.Get("Access-Control-Allow-Origin") != "" || pre.Header.Get("Access-Control-Allow-Credentials") != "" {
			t.Fatalf("preflight from another origin allowed: %v", pre.Header)
		}
		r := cookie("http://evil.example", "cross-site", http.MethodPost)
		if r.StatusCode != http.StatusForbidden || r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Fatalf("decode from another origin: %d %v", r.StatusCode, r.Header)
		}
		// The site's own origin is not the UI's: the codec's cookie rule
		// is the UI's origin only.
		if r := cookie("http://hackdesk.test", "same-origin", http.MethodPost); r.StatusCode != http.StatusForbidden {
			t.Fatalf("decode with the cookie from the site's origin: %d", r.StatusCode)
		}
	})
}
