package api

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"hackdesk/internal/platform/config"
)

// The unsubscribe route takes what mail clients send and refuses tokens it
// did not make, before it reads the database.
func TestUnsubscribeRefusals(t *testing.T) {
	t.Parallel()
	key := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("k", 32)))
	s := New(Deps{Config: config.Config{SigningKey: key}})
	for _, tc := range []struct {
		name, query, contentType, body string
		want                           int
		title                          string
	}{
		{"ErrNoToken", "", "", "", 400, "Invalid unsubscribe link"},
		{"ErrForgedToken", "?token=YWJj.c2ln", "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click", 400, "Invalid unsubscribe link"},
		{"ErrForgedTokenMultipart", "?token=YWJj.c2ln", "multipart/form-data; boundary=b",
			"--b\r\nContent-Disposition: form-data; name=\"List-Unsubscribe\"\r\n\r\nOne-Click\r\n--b--\r\n", 400, "Invalid unsubscribe link"},
		{"ErrJSONBody", "?token=YWJj.c2ln", "application/json", `{}`, 415, "Unsupported media type"},
		{"ErrTextBody", "?token=YWJj.c2ln", "text/plain", "hi", 415, "Unsupported media type"},
		{"ErrHugeForm", "?token=YWJj.c2ln", "application/x-www-form-urlencoded", strings.Repeat("a", 5000), 413, "Request body too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var r *http.Request
			if tc.body != "" {
				r = httptest.NewRequest("POST", "/api/unsubscribe"+tc.query, strings.NewReader(tc.body))
				r.Header.Set("Content-Type", tc.contentType)
			} else {
				r = httptest.NewRequest("POST", "/api/unsubscribe"+tc.query, nil)
			}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			var body errorBody
			_ = json.Unmarshal(w.Body.Bytes(), &body)
			if w.Code != tc.want || body.Error != tc.title {
				t.Fatalf("= %d %s, want %d %q", w.Code, w.Body, tc.want, tc.title)
			}
		})
	}
}
