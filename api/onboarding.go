package api

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/apperr"
	"hackdesk/db"
	"hackdesk/onboarding"
	"hackdesk/outbox"
	"hackdesk/storage"
	"hackdesk/workflows"
)

// submissionJSON is an exec form submission as the API shows it.
type submissionJSON struct {
	ID              uuid.UUID `json:"id"`
	TermID          uuid.UUID `json:"term_id"`
	ProfileID       uuid.UUID `json:"profile_id"`
	Kind            string    `json:"kind"`
	DisplayName     string    `json:"display_name"`
	Email           string    `json:"email"`
	Role            string    `json:"role"`
	TermType        string    `json:"term_type"`
	HeadshotKey     *string   `json:"headshot_key"`
	HeadshotConsent bool      `json:"headshot_consent"`
	ChatHandle      string    `json:"chat_handle"`
	PhotoHandle     string    `json:"photo_handle"`
	DsCompetency    string    `json:"ds_competency"`
	SubmittedAt     time.Time `json:"submitted_at"`
	UpdatedAt       time.Time `json:"updated_at"`
}

func toSubmissionJSON(s db.ExecFormSubmission) submissionJSON {
	return submissionJSON{ID: s.ID, TermID: s.TermID, ProfileID: s.ProfileID, Kind: s.Kind,
		DisplayName: s.DisplayName, Email: s.Email, Role: s.Role, TermType: s.TermType,
		HeadshotKey: s.HeadshotKey, HeadshotConsent: s.HeadshotConsent, ChatHandle: s.ChatHandle,
		PhotoHandle: s.PhotoHandle, DsCompetency: s.DsCompetency, SubmittedAt: s.SubmittedAt, UpdatedAt: s.UpdatedAt}
}

type windowJSON struct {
	OpensAt  *time.Time `json:"opens_at"`
	ClosesAt *time.Time `json:"closes_at"`
	Open     bool       `json:"open"`
}

// formState is what a form request knows once the caller is let in: the
// term, its window at the database's now, and the role options.
type formState struct {
	kind        onboarding.Kind
	term        db.Term
	window      onboarding.Window
	roleOptions []string
}

// windowOf picks the kind's window of a term.
func windowOf(kind onboarding.Kind, t db.Term) (opens, closes *time.Time) {
	if kind == onboarding.Returning {
		return t.ReturningOpensAt, t.ReturningClosesAt
	}
	return t.OnboardingOpensAt, t.OnboardingClosesAt
}

// openForm resolves the term (?term_id=, else the hiring term), refuses a
// caller the form is not for (403, before any window answer), then judges
// the window at the database clock: closed is 403 "Form closed" with when
// it opens or closed. q may be a transaction's queries (writes) or the
// store's (loads).
func openForm(ctx context.Context, q *db.Queries, r *http.Request, kind onboarding.Kind, me uuid.UUID) (formState, error) {
	st := formState{kind: kind}
	t, err := hiringTerm(ctx, q, r)
	if err != nil {
		return st, err
	}
	st.term = t
	var inTerm, inPrev bool
	if kind == onboarding.Onboarding {
		if inTerm, err = q.ExecRoleHeldInTerm(ctx, db.ExecRoleHeldInTermParams{ProfileID: me, TermID: &t.ID}); err != nil {
			return st, err
		}
	} else {
		prev, err := q.TermPrevious(ctx, t.ID)
		switch {
		case errors.Is(err, db.ErrNotFound):
		case err != nil:
			return st, err
		default:
			if inPrev, err = q.ExecRoleHeldInTerm(ctx, db.ExecRoleHeldInTermParams{ProfileID: me, TermID: &prev.ID, IncludeEnded: true}); err != nil {
				return st, err
			}
		}
	}
	if !onboarding.Eligible(kind, inTerm, inPrev) {
		if kind == onboarding.Returning {
			return st, apperr.WithMessage(apperr.Forbidden, "Forbidden", "The returning-exec form is for execs of the term before "+t.Name)
		}
		return st, apperr.WithMessage(apperr.Forbidden, "Forbidden", "The onboarding form is for execs of "+t.Name)
	}
	now, err := q.DBNow(ctx)
	if err != nil {
		return st, err
	}
	opens, closes := windowOf(kind, t)
	st.window = onboarding.WindowAt(kind, t.Name, opens, closes, now)
	if !st.window.Open {
		return st, apperr.WithMessage(apperr.Forbidden, "Form closed", st.window.Message)
	}
	positions, err := q.PositionList(ctx, db.PositionListParams{TermID: t.ID, IncludeClosed: true})
	if err != nil {
		return st, err
	}
	titles := make([]string, len(positions))
	for i, p := range positions {
		titles[i] = p.Title
	}
	st.roleOptions = onboarding.RoleOptions(titles)
	return st, nil
}

// getForm is GET /api/onboarding and /api/onboarding/returning.
func (s *Server) getForm(kind onboarding.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ctx := r.Context()
		me := principalFrom(ctx).ProfileID
		st, err := openForm(ctx, s.store.Queries, r, kind, me)
		if err != nil {
			return err
		}
		var sub *submissionJSON
		row, err := s.store.ExecFormSubmissionGet(ctx, db.ExecFormSubmissionGetParams{TermID: st.term.ID, ProfileID: me, Kind: string(kind)})
		switch {
		case errors.Is(err, db.ErrNotFound):
		case err != nil:
			return err
		default:
			j := toSubmissionJSON(row)
			sub = &j
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"term":         toTermJSON(st.term),
			"window":       windowJSON{OpensAt: st.window.OpensAt, ClosesAt: st.window.ClosesAt, Open: st.window.Open},
			"role_options": st.roleOptions,
			"submission":   sub,
		})
		return nil
	}
}

// formBody is a form submission. The headshot fields are optional: left
// out, the stored ones stay; a null headshot_key removes the headshot.
type formBody struct {
	DisplayName     *string       `json:"display_name"`
	Email           *string       `json:"email"`
	Role            *string       `json:"role"`
	TermType        *string       `json:"term_type"`
	HeadshotKey     field[string] `json:"headshot_key"`
	HeadshotConsent field[bool]   `json:"headshot_consent"`
	ChatHandle      *string       `json:"chat_handle"`
	PhotoHandle     *string       `json:"photo_handle"`
	DsCompetency    *string       `json:"ds_competency"`
}

func (b *formBody) Validate() apperr.Fields {
	f := apperr.Fields{}
	for name, v := range map[string]*string{"display_name": b.DisplayName, "email": b.Email, "role": b.Role,
		"term_type": b.TermType, "ds_competency": b.DsCompetency} {
		if v == nil {
			f.Add(name, "is required")
		}
	}
	if b.HeadshotConsent.Set && b.HeadshotConsent.Null {
		f.Add("headshot_consent", "cannot be null")
	}
	return f
}

func trimmed(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

// putForm is PUT /api/onboarding and /api/onboarding/returning: the first
// submission creates the row (201), a later one updates it (200).
func (s *Server) putForm(kind onboarding.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var body formBody
		if err := decode(w, r, &body); err != nil {
			return err
		}
		ctx := r.Context()
		me := principalFrom(ctx).ProfileID
		var out db.ExecFormSubmissionUpsertRow
		err := s.store.InTx(ctx, func(q *db.Queries) error {
			st, err := openForm(ctx, q, r, kind, me)
			if err != nil {
				return err
			}
			sub := onboarding.Submission{DisplayName: trimmed(body.DisplayName), Email: trimmed(body.Email),
				Role: trimmed(body.Role), TermType: trimmed(body.TermType), ChatHandle: trimmed(body.ChatHandle),
				PhotoHandle: trimmed(body.PhotoHandle), DsCompetency: trimmed(body.DsCompetency)}
			old, err := q.ExecFormSubmissionLock(ctx, db.ExecFormSubmissionLockParams{TermID: st.term.ID, ProfileID: me, Kind: string(kind)})
			switch {
			case errors.Is(err, db.ErrNotFound):
			case err != nil:
				return err
			default:
				sub.HeadshotKey, sub.HeadshotConsent = old.HeadshotKey, old.HeadshotConsent
			}
			if body.HeadshotKey.Set {
				sub.HeadshotKey = nil
				if !body.HeadshotKey.Null {
					sub.HeadshotKey = &body.HeadshotKey.V
				}
			}
			if body.HeadshotConsent.Set {
				sub.HeadshotConsent = body.HeadshotConsent.V
			}
			if f := onboarding.Validate(sub, st.roleOptions, onboarding.HeadshotKeys(st.term.ID, kind, me)); len(f) > 0 {
				return apperr.ValidationFailed(f)
			}
			// A new key must name an object that was uploaded: a form
			// pointing at nothing would have nothing to export.
			if k := sub.HeadshotKey; k != nil && (old.HeadshotKey == nil || *old.HeadshotKey != *k) {
				ok, err := s.blob.Exists(ctx, *k)
				if err != nil {
					return err
				}
				if !ok {
					return apperr.ValidationFailed(apperr.Fields{"headshot_key": "no headshot was uploaded under this key; upload it first"})
				}
			}
			out, err = q.ExecFormSubmissionUpsert(ctx, db.ExecFormSubmissionUpsertParams{TermID: st.term.ID, ProfileID: me,
				Kind: string(kind), DisplayName: sub.DisplayName, Email: sub.Email, Role: sub.Role, TermType: sub.TermType,
				HeadshotKey: sub.HeadshotKey, HeadshotConsent: sub.HeadshotConsent, ChatHandle: sub.ChatHandle,
				PhotoHandle: sub.PhotoHandle, DsCompetency: sub.DsCompetency})
			if err != nil {
				return err
			}
			return queueHeadshotCleanup(ctx, q, st.term.ID, me, kind, old.HeadshotKey, sub.HeadshotKey)
		})
		if err != nil {
			return err
		}
		status := http.StatusOK
		if out.Created {
			status = http.StatusCreated
		}
		writeJSON(w, status, map[string]any{"submission": toSubmissionJSON(db.ExecFormSubmission{ID: out.ID, TermID: out.TermID,
			ProfileID: out.ProfileID, Kind: out.Kind, DisplayName: out.DisplayName, Email: out.Email, Role: out.Role,
			TermType: out.TermType, HeadshotKey: out.HeadshotKey, HeadshotConsent: out.HeadshotConsent,
			ChatHandle: out.ChatHandle, PhotoHandle: out.PhotoHandle, DsCompetency: out.DsCompetency,
			SubmittedAt: out.SubmittedAt, UpdatedAt: out.UpdatedAt})})
		return nil
	}
}

var (
	errHeadshotTooLarge = apperr.WithMessage(apperr.TooLarge, "File too large", "A headshot may be at most 5 MB")
	errHeadshotType     = apperr.WithMessage(apperr.Unsupported, "Unsupported file type", "A headshot must be a JPEG or PNG image")
)

// readHeadshot reads the multipart fields "file" (capped while reading;
// Content-Length is not trusted) and "consent", within the upload
// deadline.
func readHeadshot(w http.ResponseWriter, r *http.Request, timeout time.Duration) (data []byte, consent bool, err error) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return nil, false, apperr.WithMessage(apperr.Unsupported, "Unsupported media type", "Send the headshot as multipart/form-data with a file part")
	}
	uploadDeadline(w, timeout)
	r.Body = http.MaxBytesReader(w, r.Body, onboarding.MaxHeadshot+multipartOverhead)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, false, errMultipart
	}
	var gotFile bool
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, false, uploadError(err, errHeadshotTooLarge, errMultipart)
		}
		if partHeaderSize(part) > maxPartHeader {
			return nil, false, errPartHeader
		}
		switch part.FormName() {
		case "file":
			var buf bytes.Buffer
			n, err := io.Copy(&buf, io.LimitReader(part, onboarding.MaxHeadshot+1))
			if err != nil {
				return nil, false, uploadError(err, errHeadshotTooLarge, errUploadCut)
			}
			if n > onboarding.MaxHeadshot {
				return nil, false, errHeadshotTooLarge
			}
			data, gotFile = buf.Bytes(), true
		case "consent":
			v, err := io.ReadAll(io.LimitReader(part, 16))
			if err != nil {
				return nil, false, uploadError(err, errHeadshotTooLarge, errUploadCut)
			}
			consent = strings.TrimSpace(string(v)) == "true"
		}
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
		if _, err := openForm(ctx, s.store.Queries, r, kind, me); err != nil {
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
		img, ok := onboarding.DetectImage(data)
		if !ok {
			return errHeadshotType
		}
		var key string
		err = s.store.InTx(ctx, func(q *db.Queries) error {
			// Again inside the transaction: the window may have closed while
			// the file was being read.
			st, err := openForm(ctx, q, r, kind, me)
			if err != nil {
				return err
			}
			key = onboarding.HeadshotKey(st.term.ID, kind, me, img.Ext)
			old, err := q.ExecFormSubmissionLock(ctx, db.ExecFormSubmissionLockParams{TermID: st.term.ID, ProfileID: me, Kind: string(kind)})
			if err != nil && !errors.Is(err, db.ErrNotFound) {
				return err
			}
			if err := s.blob.Put(ctx, key, img.ContentType, bytes.NewReader(data), int64(len(data))); err != nil {
				return fmt.Errorf("store headshot: %w", err)
			}
			if _, err = q.ExecFormSubmissionSetHeadshot(ctx, db.ExecFormSubmissionSetHeadshotParams{HeadshotKey: &key,
				TermID: st.term.ID, ProfileID: me, Kind: string(kind)}); err != nil {
				return err
			}
			return queueHeadshotCleanup(ctx, q, st.term.ID, me, kind, old.HeadshotKey, &key)
		})
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]string{"key": key})
		return nil
	}
}

// queueHeadshotCleanup queues, in the caller's transaction, the clean-up of
// a headshot object the form no longer points at (replaced by the other
// image type, or removed), as replaced resumes are cleaned up. The
// workflow deletes it unless the form points at it again by then.
func queueHeadshotCleanup(ctx context.Context, q *db.Queries, term, profile uuid.UUID, kind onboarding.Kind, old, now *string) error {
	if old == nil || (now != nil && *now == *old) {
		return nil
	}
	_, err := outbox.Enqueue(ctx, q, workflows.HeadshotCleanupRequest(workflows.HeadshotCleanupInput{
		TermID: term, ProfileID: profile, Kind: string(kind), Key: *old, ChangeID: uuid.New()}))
	return err
}

// reviewKind reads ?kind= (onboarding by default).
func reviewKind(r *http.Request) (onboarding.Kind, error) {
	k := onboarding.Kind(r.URL.Query().Get("kind"))
	if k == "" {
		return onboarding.Onboarding, nil
	}
	if !k.Valid() {
		return k, apperr.ValidationFailed(apperr.Fields{"kind": "must be onboarding or returning"})
	}
	return k, nil
}

// reviewSubmissions loads the submissions a VP (their subteam) or a
// President (all) may see: for onboarding the subteam is the submitter's
// in the term, for returning in the term before it.
func (s *Server) reviewSubmissions(r *http.Request) (db.Term, onboarding.Kind, []db.ExecFormSubmissionListRow, error) {
	ctx := r.Context()
	kind, err := reviewKind(r)
	if err != nil {
		return db.Term{}, kind, nil, err
	}
	t, err := hiringTerm(ctx, s.store.Queries, r)
	if err != nil {
		return t, kind, nil, err
	}
	roleTerm := t.ID
	if kind == onboarding.Returning {
		prev, err := s.store.TermPrevious(ctx, t.ID)
		switch {
		case errors.Is(err, db.ErrNotFound):
			roleTerm = uuid.Nil
		case err != nil:
			return t, kind, nil, err
		default:
			roleTerm = prev.ID
		}
	}
	scope, _ := callerScope(principalFrom(ctx))
	var subteam *string
	if !scope.All {
		subteam = &scope.Subteam
	}
	rows, err := s.store.ExecFormSubmissionList(ctx, db.ExecFormSubmissionListParams{TermID: t.ID, Kind: string(kind),
		RoleTermID: roleTerm, Subteam: subteam})
	return t, kind, rows, err
}

// listSubmissions is GET /api/onboarding/submissions?term_id=&kind=&page=&page_size=.
func (s *Server) listSubmissions(w http.ResponseWriter, r *http.Request) error {
	fields := apperr.Fields{}
	pg := parsePage(r, fields)
	if err := fields.Err(); err != nil {
		return err
	}
	t, kind, rows, err := s.reviewSubmissions(r)
	if err != nil {
		return err
	}
	type item struct {
		submissionJSON
		Subteam *string `json:"subteam"`
	}
	items := []item{}
	for _, row := range pageOf(rows, pg) {
		it := item{submissionJSON: toSubmissionJSON(listRowSubmission(row))}
		if row.Subteam != "" {
			it.Subteam = &row.Subteam
		}
		items = append(items, it)
	}
	writeJSON(w, http.StatusOK, map[string]any{"term": toTermJSON(t), "kind": kind, "submissions": items,
		"total": len(rows), "page": pg.Number, "page_size": pg.Size})
	return nil
}

func listRowSubmission(row db.ExecFormSubmissionListRow) db.ExecFormSubmission {
	return db.ExecFormSubmission{ID: row.ID, TermID: row.TermID, ProfileID: row.ProfileID, Kind: row.Kind,
		DisplayName: row.DisplayName, Email: row.Email, Role: row.Role, TermType: row.TermType,
		HeadshotKey: row.HeadshotKey, HeadshotConsent: row.HeadshotConsent, ChatHandle: row.ChatHandle,
		PhotoHandle: row.PhotoHandle, DsCompetency: row.DsCompetency, SubmittedAt: row.SubmittedAt, UpdatedAt: row.UpdatedAt}
}

// exportFilename is the download name of an export: safe ASCII.
func exportFilename(t db.Term, kind onboarding.Kind, ext string) string {
	name := strings.Map(func(r rune) rune {
		if r < 128 && (r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, t.Name)
	return fmt.Sprintf("%s-%s.%s", name, kind, ext)
}

// exportCSV is GET /api/onboarding/export.csv?term_id=&kind=: a header row,
// then one row per submission written as it goes, every cell neutralised
// against spreadsheet formulas.
func (s *Server) exportCSV(w http.ResponseWriter, r *http.Request) error {
	t, kind, rows, err := s.reviewSubmissions(r)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", exportFilename(t, kind, "csv")))
	w.WriteHeader(http.StatusOK)
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"profile_id", "display_name", "email", "role", "subteam", "term_type", "chat_handle",
		"photo_handle", "ds_competency", "headshot_key", "headshot_consent", "submitted_at", "updated_at"})
	for i, row := range rows {
		rec := []string{row.ProfileID.String(), row.DisplayName, row.Email, row.Role, row.Subteam, row.TermType,
			row.ChatHandle, row.PhotoHandle, row.DsCompetency, "", fmt.Sprint(row.HeadshotConsent),
			row.SubmittedAt.UTC().Format(time.RFC3339), row.UpdatedAt.UTC().Format(time.RFC3339)}
		if row.HeadshotKey != nil {
			rec[9] = *row.HeadshotKey
		}
		for j := range rec {
			rec[j] = onboarding.CSVCell(rec[j])
		}
		if err := cw.Write(rec); err != nil {
			return nil // the client went away; the status is sent already
		}
		if i%100 == 99 {
			cw.Flush()
		}
	}
	cw.Flush()
	return nil
}

// missingList is the name of the ZIP entry that lists the headshots the
// object store did not have.
const missingList = "missing.txt"

// exportHeadshots is GET /api/onboarding/headshots.zip?term_id=&kind=: the
// headshots in scope as a ZIP of stored (not deflated) entries, each copied
// from the object store to the client as it is read, so memory stays
// constant however many there are. A headshot missing from the store is
// skipped and named in a last entry, missing.txt, so one lost object never
// keeps the others from being exported.
func (s *Server) exportHeadshots(w http.ResponseWriter, r *http.Request) error {
	t, kind, rows, err := s.reviewSubmissions(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", exportFilename(t, kind, "zip")))
	w.WriteHeader(http.StatusOK)
	zw := zip.NewWriter(w)
	var missing strings.Builder
	for _, row := range rows {
		if row.HeadshotKey == nil {
			continue
		}
		key := *row.HeadshotKey
		err := s.zipEntry(ctx, zw, onboarding.ZipName(row.DisplayName, row.ProfileID, key), key)
		if errors.Is(err, storage.ErrNotFound) {
			s.log.WarnContext(ctx, "headshot missing from the object store", "key", key)
			fmt.Fprintf(&missing, "%s (%s): %s\r\n", row.DisplayName, row.ProfileID, key)
			continue
		}
		if err != nil {
			// The status is sent: end the response without the central
			// directory, so the client sees a broken archive, and log why.
			s.log.ErrorContext(ctx, "headshot zip", "key", key, "err", err)
			return nil
		}
	}
	if missing.Len() > 0 {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: missingList, Method: zip.Store, Modified: time.Now().UTC()})
		if err == nil {
			_, err = io.WriteString(fw, "Headshots missing from storage (ask these people to upload theirs again):\r\n"+missing.String())
		}
		if err != nil {
			s.log.ErrorContext(ctx, "headshot zip", "entry", missingList, "err", err)
			return nil
		}
	}
	if err := zw.Close(); err != nil {
		s.log.ErrorContext(ctx, "headshot zip close", "err", err)
	}
	return nil
}

// zipEntry streams one object into the archive as a stored entry. An
// object the store does not have is storage.ErrNotFound, and adds nothing.
func (s *Server) zipEntry(ctx context.Context, zw *zip.Writer, name, key string) error {
	body, _, err := s.blob.Get(ctx, key)
	if err != nil {
		return err
	}
	defer body.Close()
	fw, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store, Modified: time.Now().UTC()})
	if err != nil {
		return err
	}
	_, err = io.Copy(fw, body)
	return err
}
