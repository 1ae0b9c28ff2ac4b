package api

import (
	"io"
	"mime"
	"net/http"

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
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "message": "You will get no more marketing email from us"})
	return nil
}
