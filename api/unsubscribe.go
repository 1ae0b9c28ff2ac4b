package api

import (
	"bytes"
	"html/template"
	"io"
	"mime"
	"net/http"
	"strings"

	"hackdesk/apperr"
	"hackdesk/broadcast"
)

// maxUnsubscribeBody caps the one-click form ("List-Unsubscribe=One-Click").
const maxUnsubscribeBody = 4 << 10

var (
	errBadUnsubscribe = apperr.WithMessage(apperr.Invalid, "Invalid unsubscribe link",
		"The link is incomplete or was not made by this service")
	errUnsubscribeBody = apperr.WithMessage(apperr.Unsupported, "Unsupported media type",
		"Send no body, or the one-click form List-Unsubscribe=One-Click")
)

// oneClickType reports whether a request body of this Content-Type is one
// a mail client sends for a one-click unsubscribe (RFC 8058): a form,
// urlencoded or multipart.
func oneClickType(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data")
}

// unsubscribe is POST /api/unsubscribe?token= (public): the one-click
// unsubscribe of RFC 8058 that every broadcast email's List-Unsubscribe
// header points at. Mail clients post the form
// "List-Unsubscribe=One-Click" (or nothing); its content is not needed, as
// the signed token names the person. It clears the profile's
// marketing_opt_in, so marketing broadcasts skip them; doing it again
// changes nothing and answers the same. A missing or forged token is 400,
// like the account links; nothing says whether a profile exists.
func (s *Server) unsubscribe(w http.ResponseWriter, r *http.Request) error {
	if hasBody(r) && !oneClickType(r.Header.Get("Content-Type")) {
		return errUnsubscribeBody
	}
	if hasBody(r) {
		// The form is read (up to a small cap) so the connection can be
		// reused; what it says does not matter.
		if _, err := io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, maxUnsubscribeBody)); err != nil {
			return apperr.WithMessage(apperr.TooLarge, "Request body too large", "The one-click form is a few bytes")
		}
	}
	key, err := s.cfg.SigningKeyBytes()
	if err != nil {
		return err
	}
	profileID, err := broadcast.OpenUnsubscribeToken(broadcast.UnsubscribeSigner(key), r.URL.Query().Get("token"))
	if err != nil {
		return errBadUnsubscribe
	}
	if _, err := s.store.ProfileUnsubscribe(r.Context(), profileID); err != nil {
		return err
	}
	if wantsHTML(r) { // the page's button, in a browser
		writePage(w, http.StatusOK, unsubscribedPage)
		return nil
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "message": unsubscribedMessage})
	return nil
}

const unsubscribedMessage = "You will get no more marketing email from us"

// unsubscribePage is GET /api/unsubscribe?token= (public): the link at the
// foot of a broadcast email, opened in a browser. It changes nothing: a
// GET must not unsubscribe, because link scanners and mail filters open
// links (RFC 8058). It shows a button whose form posts the one-click form
// back to the same URL. A missing or forged token gets a page saying so,
// with 400.
func (s *Server) unsubscribePage(w http.ResponseWriter, r *http.Request) error {
	key, err := s.cfg.SigningKeyBytes()
	if err != nil {
		return err
	}
	if _, err := broadcast.OpenUnsubscribeToken(broadcast.UnsubscribeSigner(key), r.URL.Query().Get("token")); err != nil {
		writePage(w, http.StatusBadRequest, badLinkPage)
		return nil
	}
	writePage(w, http.StatusOK, confirmPage)
	return nil
}

// wantsHTML reports whether the caller is a browser asking for a page: its
// Accept names text/html. Mail clients' one-click posts and API callers
// get JSON.
func wantsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

// The unsubscribe pages. The form has no action, so it posts to the page's
// own URL, token included.
var (
	pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}button{font:inherit;padding:.5rem 1rem}</style>
</head><body><h1>{{.Title}}</h1><p>{{.Text}}</p>{{if .Button}}
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">{{.Button}}</button></form>{{end}}
</body></html>
`))
	confirmPage      = renderPage("Unsubscribe", "Stop the club's marketing email? Emails about your own account, applications and membership still arrive.", "Unsubscribe")
	unsubscribedPage = renderPage("Unsubscribed", unsubscribedMessage+". You can opt in again on your next application.", "")
	badLinkPage      = renderPage("Invalid unsubscribe link", "The link is incomplete or was not made by this service. Copy the whole link from the email.", "")
)

func renderPage(title, text, button string) []byte {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, struct{ Title, Text, Button string }{title, text, button}); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// pageCSP lets a page show its own inline style and post its form to its
// own origin, and nothing else; no other site may frame it.
const pageCSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

func writePage(w http.ResponseWriter, status int, page []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(page)
}
