package api

import (
	"net/http"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/application"
	"hackdesk/outbox"
	"hackdesk/workflows"
)

// uploadResume stores a new resume and points the application of the
// current edition at it (application.StoreResume). The window and the
// draft are checked before the body is read (403 outside the window, 404
// without an application, 409 once submitted), and the upload takes one of
// the account's places. A ResumeCleanup workflow is queued in the
// same transaction (package outbox) for the object it replaces. If
// anything fails, the old resume stays current.
func (s *Server) uploadResume(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	me := principalFrom(ctx).ProfileID
	if err := application.CheckDraft(ctx, s.store.Queries, me); err != nil {
		return err
	}
	release, err := s.uploadPlace(w, me)
	if err != nil {
		return err
	}
	defer release()
	filename, data, err := readResumePart(w, r, s.cfg.UploadTimeout)
	if err != nil {
		return err
	}
	file, err := application.CheckResume(me, filename, data)
	if err != nil {
		return err
	}
	var stored application.StoredResume
	err = s.store.InTx(ctx, func(q *db.Queries) (err error) {
		stored, err = application.StoreResume(ctx, q, s.blob, me, file)
		if err != nil || stored.Replaced == "" {
			return err
		}
		_, err = outbox.Enqueue(ctx, q, workflows.ResumeCleanupRequest(workflows.ResumeCleanupInput{
			ProfileID: me, OldKey: stored.Replaced, UploadID: uuid.New(), Grace: s.cfg.ResumeCleanupGrace,
		}))
		return err
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": "Resume uploaded", "key": stored.Key})
	return nil
}

// getResume answers the caller's resume with its signed links. There is no
// parameter naming another user: the owner is always the caller.
func (s *Server) getResume(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	out, err := application.Resume(ctx, s.store.Queries, s.blob, s.log, principalFrom(ctx).ProfileID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
