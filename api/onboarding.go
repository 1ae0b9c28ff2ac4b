package api

import (
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/feature/onboarding"
	"hackdesk/internal/feature/term"
	"hackdesk/internal/platform/apperr"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// formTerm is the term a form request is about: ?term_id=, else the
// caller's own (onboarding.OwnTerm), else the hiring term.
func formTerm(ctx context.Context, q *db.Queries, r *http.Request, kind onboarding.Kind, me uuid.UUID) (db.Term, error) {
	id := r.URL.Query().Get("term_id")
	if id == "" {
		if t, ok, err := onboarding.OwnTerm(ctx, q, kind, me); err != nil || ok {
			return t, err
		}
	}
	return hiring.TermOf(ctx, q, id)
}

// getForm is GET /api/onboarding and /api/onboarding/returning. Every form
// request resolves the term first (formTerm), then the onboarding package
// lets the caller in or not. The answer also names the terms whose form is
// for the caller (a page offers the others) and the role the form starts
// from.
func (s *Server) getForm(kind onboarding.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ctx := r.Context()
		me := principalFrom(ctx).ProfileID
		t, err := formTerm(ctx, s.store.Queries, r, kind, me)
		if err != nil {
			return err
		}
		f, sub, err := onboarding.Get(ctx, s.store.Queries, t, kind, me)
		if err != nil {
			return err
		}
		own, err := onboarding.OwnRole(ctx, s.store.Queries, t, me, f.RoleOptions)
		if err != nil {
			return err
		}
		mine, err := onboarding.TermsFor(ctx, s.store.Queries, kind, me)
		if err != nil {
			return err
		}
		terms := make([]term.View, len(mine))
		for i, x := range mine {
			terms[i] = term.ToView(x)
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"term":         term.ToView(f.Term),
			"window":       f.Window,
			"role_options": f.RoleOptions,
			"own_role":     own,
			"terms":        terms,
			"submission":   sub,
		})
		return nil
	}
}

// putForm is PUT /api/onboarding and /api/onboarding/returning: the first
// submission creates the row (201), a later one updates it (200).
func (s *Server) putForm(kind onboarding.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var body onboarding.FormInput
		if err := decode(w, r, &body); err != nil {
			return err
		}
		ctx := r.Context()
		me := principalFrom(ctx).ProfileID
		var out onboarding.Saved
		err := s.store.InTx(ctx, func(q *db.Queries) error {
			t, err := formTerm(ctx, q, r, kind, me)
			if err != nil {
				return err
			}
			if out, err = onboarding.Submit(ctx, q, s.blob, t, kind, me, body.Answers()); err != nil {
				return err
			}
			return queueHeadshotCleanup(ctx, q, t.ID, me, kind, out.Dropped)
		})
		if err != nil {
			return err
		}
		status := http.StatusOK
		if out.Created {
			status = http.StatusCreated
		}
		writeJSON(w, status, map[string]any{"submission": out.Submission})
		return nil
	}
}

// readHeadshot reads the multipart fields "file" and "consent" (readParts).
func readHeadshot(w http.ResponseWriter, r *http.Request, timeout time.Duration) (data []byte, consent bool, err error) {
	var gotFile bool
	err = readParts(w, r, timeout, "headshot", onboarding.MaxHeadshot, onboarding.ErrHeadshotTooLarge, func(part *multipart.Part) (bool, error) {
		var err error
		switch part.FormName() {
		case "file":
			data, err = readFilePart(part, onboarding.MaxHeadshot, onboarding.ErrHeadshotTooLarge)
			gotFile = err == nil
		case "consent":
			var v []byte
			if v, err = io.ReadAll(io.LimitReader(part, 16)); err != nil {
				err = uploadError(err, onboarding.ErrHeadshotTooLarge, errUploadCut)
			}
			consent = strings.TrimSpace(string(v)) == "true"
		}
		return false, err
	})
	if err != nil {
		return nil, false, err
	}
	f := apperr.Fields{}
	switch {
	case !gotFile:
		f.Add("file", "is required")
	case len(data) == 0:
		f.Add("file", "is empty")
	}
	if !consent {
		f.Add("consent", "must be true")
	}
	return data, consent, f.Err()
}

// uploadHeadshot is POST /api/onboarding/headshot and
// /api/onboarding/returning/headshot. The caller and window are checked
// before the body is read, and the upload takes one of the account's
// places (429 beyond); the object is stored byte for byte under the
// caller's key, and an existing submission points at it. A headshot of the
// other image type is then removed.
func (s *Server) uploadHeadshot(kind onboarding.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ctx := r.Context()
		me := principalFrom(ctx).ProfileID
		t, err := formTerm(ctx, s.store.Queries, r, kind, me)
		if err != nil {
			return err
		}
		if _, err := onboarding.Open(ctx, s.store.Queries, t, kind, me); err != nil {
			return err
		}
		release, err := s.uploadPlace(w, me)
		if err != nil {
			return err
		}
		defer release()
		data, _, err := readHeadshot(w, r, s.cfg.UploadTimeout)
		if err != nil {
			return err
		}
		img, err := onboarding.CheckHeadshot(data)
		if err != nil {
			return err
		}
		var up onboarding.Upload
		err = s.store.InTx(ctx, func(q *db.Queries) error {
			t, err := formTerm(ctx, q, r, kind, me)
			if err != nil {
				return err
			}
			if up, err = onboarding.SaveHeadshot(ctx, q, s.blob, t, kind, me, img, data); err != nil {
				return err
			}
			return queueHeadshotCleanup(ctx, q, t.ID, me, kind, up.Dropped)
		})
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]string{"key": up.Key})
		return nil
	}
}

// queueHeadshotCleanup queues, in the caller's transaction, the clean-up of
// a headshot object the form no longer points at (replaced by the other
// image type, or removed; nil is none), as replaced resumes are cleaned
// up. The workflow deletes it unless the form points at it again by then.
func queueHeadshotCleanup(ctx context.Context, q *db.Queries, term, profile uuid.UUID, kind onboarding.Kind, dropped *string) error {
	if dropped == nil {
		return nil
	}
	_, err := outbox.Enqueue(ctx, q, workflows.HeadshotCleanupRequest(workflows.HeadshotCleanupInput{
		TermID: term, ProfileID: profile, Kind: string(kind), Key: *dropped, ChangeID: uuid.New()}))
	return err
}
