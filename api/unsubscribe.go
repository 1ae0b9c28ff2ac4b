package api

import (
	"io"
	"net/http"
	"strings"

	"hackdesk/db"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/internal/platform/apperr"
)

var errUnsubscribeBody = apperr.WithMessage(apperr.Unsupported, "Unsupported media type",
	"Send no body, or the one-click form List-Unsubscribe=One-Click")

// unsubscribe is POST /api/unsubscribe?token= (public): the one-click
// unsubscribe of RFC 8058 that every broadcast email's List-Unsubscribe
// header points at. Mail clients post the form
// "List-Unsubscribe=One-Click" (or nothing); its content is not needed, as
// the signed token names the person (broadcast.Unsubscribe). Doing it
// again changes nothing and answers the same. A missing or forged token is
// 400, like the account links; nothing says whether a profile exists.
func (s *Server) unsubscribe(w http.ResponseWriter, r *http.Request) error {
	if hasBody(r) && !broadcast.OneClickContentType(r.Header.Get("Content-Type")) {
		return errUnsubscribeBody
	}
	if hasBody(r) {
		// The form is read (up to a small cap) so the connection can be
		// reused; what it says does not matter.
		if _, err := io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, broadcast.MaxOneClickBody)); err != nil {
			return apperr.WithMessage(apperr.TooLarge, "Request body too large", "The one-click form is a few bytes")
		}
	}
	key, err := s.cfg.SigningKeyBytes()
	if err != nil {
		return err
	}
	profileID, err := broadcast.OpenUnsubscribeToken(broadcast.UnsubscribeSigner(key), r.URL.Query().Get("token"))
	if err != nil {
		return broadcast.ErrBadLink
	}
	ctx := r.Context()
	if err := s.store.InTx(ctx, func(q *db.Queries) error { return broadcast.Unsubscribe(ctx, q, profileID) }); err != nil {
		return err
	}
	if wantsHTML(r) { // the page's button, in a browser
		writePage(w, http.StatusOK, broadcast.UnsubscribedPage)
		return nil
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "message": broadcast.UnsubscribedMessage})
	return nil
}

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
		writePage(w, http.StatusBadRequest, broadcast.BadLinkPage)
		return nil
	}
	writePage(w, http.StatusOK, broadcast.ConfirmPage)
	return nil
}

// wantsHTML reports whether the caller is a browser asking for a page: its
// Accept names text/html. Mail clients' one-click posts and API callers
// get JSON.
func wantsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
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
