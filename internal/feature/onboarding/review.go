package onboarding

import (
	"archive/zip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/storage"
)

// ParseKind reads a review's kind (?kind=): onboarding when empty.
func ParseKind(v string) (Kind, error) {
	k := Kind(v)
	if k == "" {
		return Onboarding, nil
	}
	if !k.Valid() {
		return k, apperr.ValidationFailed(apperr.Fields{"kind": "must be onboarding or returning"})
	}
	return k, nil
}

// Review loads the kind's submissions of term t that a reviewer may see:
// those of subteam, or all when subteam is nil. For onboarding the subteam
// is the submitter's in the term, for returning in the term before it.
func Review(ctx context.Context, q *db.Queries, t db.Term, kind Kind, subteam *string) ([]db.ExecFormSubmissionListRow, error) {
	roleTerm := t.ID
	if kind == Returning {
		prev, err := q.TermPrevious(ctx, t.ID)
		switch {
		case errors.Is(err, db.ErrNotFound):
			roleTerm = uuid.Nil
		case err != nil:
			return nil, err
		default:
			roleTerm = prev.ID
		}
	}
	return q.ExecFormSubmissionList(ctx, db.ExecFormSubmissionListParams{TermID: t.ID, Kind: string(kind),
		RoleTermID: roleTerm, Subteam: subteam})
}

// Missing are the people the kind's form of term t is for who have not
// submitted it, that a reviewer may see (subteam, or all when nil), by
// name: for onboarding the holders of an active exec role of the term,
// for returning everyone who held one in the term before it.
func Missing(ctx context.Context, q *db.Queries, t db.Term, kind Kind, subteam *string) ([]MissingItem, error) {
	roleTerm := t.ID
	if kind == Returning {
		prev, err := q.TermPrevious(ctx, t.ID)
		switch {
		case errors.Is(err, db.ErrNotFound):
			return []MissingItem{}, nil
		case err != nil:
			return nil, err
		}
		roleTerm = prev.ID
	}
	rows, err := q.ExecFormMissing(ctx, db.ExecFormMissingParams{RoleTermID: &roleTerm, IncludeEnded: kind == Returning,
		Subteam: subteam, TermID: t.ID, Kind: string(kind)})
	if err != nil {
		return nil, err
	}
	out := make([]MissingItem, len(rows))
	for i, r := range rows {
		out[i] = MissingItem{ProfileID: r.ProfileID, DisplayName: r.DisplayName, Email: r.Email, Position: r.Position}
		if r.Subteam != "" {
			out[i].Subteam = &r.Subteam
		}
	}
	return out, nil
}

// MissingItem is someone who has not submitted a form meant for them, with
// the exec role that makes it theirs.
type MissingItem struct {
	ProfileID   uuid.UUID `json:"profile_id"`
	DisplayName *string   `json:"display_name"`
	Email       string    `json:"email"`
	Position    string    `json:"position"`
	Subteam     *string   `json:"subteam"`
}

// ReviewItem is a submission in the review list, with the submitter's
// subteam (null without one).
type ReviewItem struct {
	SubmissionView
	Subteam *string `json:"subteam"`
}

// ReviewItems are the list's rows as the API shows them.
func ReviewItems(rows []db.ExecFormSubmissionListRow) []ReviewItem {
	items := []ReviewItem{}
	for _, row := range rows {
		it := ReviewItem{SubmissionView: toSubmissionView(db.ExecFormSubmission{ID: row.ID, TermID: row.TermID,
			ProfileID: row.ProfileID, Kind: row.Kind, DisplayName: row.DisplayName, Email: row.Email, Role: row.Role,
			TermType: row.TermType, HeadshotKey: row.HeadshotKey, HeadshotConsent: row.HeadshotConsent,
			ChatHandle: row.ChatHandle, PhotoHandle: row.PhotoHandle, DsCompetency: row.DsCompetency,
			SubmittedAt: row.SubmittedAt, UpdatedAt: row.UpdatedAt})}
		if row.Subteam != "" {
			it.Subteam = &row.Subteam
		}
		items = append(items, it)
	}
	return items
}

// ExportFilename is the download name of an export: safe ASCII.
func ExportFilename(term string, kind Kind, ext string) string {
	name := strings.Map(func(r rune) rune {
		if r < 128 && (r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, term)
	return fmt.Sprintf("%s-%s.%s", name, kind, ext)
}

// CSVHeader is the first row of the CSV export.
var CSVHeader = []string{"profile_id", "display_name", "email", "role", "subteam", "term_type", "chat_handle",
	"photo_handle", "ds_competency", "headshot_key", "headshot_consent", "submitted_at", "updated_at"}

// CSVRow is a submission's row of the CSV export, every cell neutralised
// against spreadsheet formulas.
func CSVRow(row db.ExecFormSubmissionListRow) []string {
	rec := []string{row.ProfileID.String(), row.DisplayName, row.Email, row.Role, row.Subteam, row.TermType,
		row.ChatHandle, row.PhotoHandle, row.DsCompetency, "", fmt.Sprint(row.HeadshotConsent),
		row.SubmittedAt.UTC().Format(time.RFC3339), row.UpdatedAt.UTC().Format(time.RFC3339)}
	if row.HeadshotKey != nil {
		rec[9] = *row.HeadshotKey
	}
	for j := range rec {
		rec[j] = CSVCell(rec[j])
	}
	return rec
}

// WriteCSV writes the export to w row by row, flushing every hundred rows,
// and stops at the first failed write (the client went away).
func WriteCSV(w io.Writer, rows []db.ExecFormSubmissionListRow) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(CSVHeader)
	for i, row := range rows {
		if err := cw.Write(CSVRow(row)); err != nil {
			return err
		}
		if i%100 == 99 {
			cw.Flush()
		}
	}
	cw.Flush()
	return cw.Error()
}

// MissingList is the name of the ZIP entry that lists the headshots the
// object store did not have.
const MissingList = "missing.txt"

// WriteHeadshotZip writes the rows' headshots to w as a ZIP of stored (not
// deflated) entries, each copied from the object store as it is read, so
// memory stays constant however many there are. A headshot missing from
// the store is skipped and named in a last entry, missing.txt, so one lost
// object never keeps the others from being exported. Any other failure
// ends the archive without its central directory, so the client sees a
// broken one; it is logged, since the response status is sent already.
func WriteHeadshotZip(ctx context.Context, w io.Writer, objs Objects, log *slog.Logger, rows []db.ExecFormSubmissionListRow) {
	zw := zip.NewWriter(w)
	var missing strings.Builder
	for _, row := range rows {
		if row.HeadshotKey == nil {
			continue
		}
		key := *row.HeadshotKey
		err := zipEntry(ctx, zw, objs, ZipName(row.DisplayName, row.ProfileID, key), key)
		if errors.Is(err, storage.ErrNotFound) {
			log.WarnContext(ctx, "headshot missing from the object store", "key", key)
			fmt.Fprintf(&missing, "%s (%s): %s\r\n", row.DisplayName, row.ProfileID, key)
			continue
		}
		if err != nil {
			log.ErrorContext(ctx, "headshot zip", "key", key, "err", err)
			return
		}
	}
	if missing.Len() > 0 {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: MissingList, Method: zip.Store, Modified: time.Now().UTC()})
		if err == nil {
			_, err = io.WriteString(fw, "Headshots missing from storage (ask these people to upload theirs again):\r\n"+missing.String())
		}
		if err != nil {
			log.ErrorContext(ctx, "headshot zip", "entry", MissingList, "err", err)
			return
		}
	}
	if err := zw.Close(); err != nil {
		log.ErrorContext(ctx, "headshot zip close", "err", err)
	}
}

// zipEntry streams one object into the archive as a stored entry. An
// object the store does not have is storage.ErrNotFound, and adds nothing.
func zipEntry(ctx context.Context, zw *zip.Writer, objs Objects, name, key string) error {
	body, _, err := objs.Get(ctx, key)
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
