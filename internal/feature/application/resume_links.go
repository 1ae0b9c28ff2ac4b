package application

import (
	"context"
	"log/slog"
	"time"

	"hackdesk/db"
	"hackdesk/internal/platform/resume"
)

// ResumeLinkTTL is the lifetime of a signed resume link (1 hour).
const ResumeLinkTTL = time.Hour

// resumeSniffTimeout bounds the read of a resume's first bytes when its
// type was not stored (resumeTypeOf).
const resumeSniffTimeout = 2 * time.Second

// ResumeLinks are the signed links to an application's resume, each valid
// ResumeLinkTTL: the download (Content-Disposition: attachment) and, for a
// PDF only, the preview a page may show in a frame (inline, served as
// application/pdf). Both are nil without a resume; Preview is nil for a
// DOC or DOCX, and for a resume whose type cannot be told.
type ResumeLinks struct {
	Download *string
	Preview  *string
}

// ResumeLinksOf signs the links to a's resume. The type comes from the
// row; a resume stored before types were gets it from the object's first
// bytes (resumeTypeOf).
func ResumeLinksOf(ctx context.Context, q *db.Queries, blob ResumeBlob, log *slog.Logger, a db.Application) (ResumeLinks, error) {
	var out ResumeLinks
	if a.ResumeKey == nil {
		return out, nil
	}
	link, err := blob.PresignGet(ctx, *a.ResumeKey, *a.ResumeName, ResumeLinkTTL)
	if err != nil {
		return out, err
	}
	out.Download = &link
	if resumeTypeOf(ctx, q, blob, log, a) != resume.PDF {
		return out, nil
	}
	preview, err := blob.PresignInline(ctx, *a.ResumeKey, resume.PDF.ContentType, ResumeLinkTTL)
	if err != nil {
		return out, err
	}
	out.Preview = &preview
	return out, nil
}

// resumeTypeOf is the type of a's resume: the one stored at upload, or,
// for a resume uploaded before types were stored (the lazy backfill), the
// one its first bytes show, which is then stored so that the object is
// read once. The upload accepted the file, so its signature alone tells
// the type (resume.Sniff). Only the preview depends on the answer, so a
// type that cannot be read (a missing object, the object store out of
// reach) is logged and answered as unknown, the zero Type, and read again
// next time.
func resumeTypeOf(ctx context.Context, q *db.Queries, blob ResumeBlob, log *slog.Logger, a db.Application) resume.Type {
	if a.ResumeType != nil {
		t, _ := resume.ByKind(*a.ResumeType) // a CHECK keeps it one of them
		return t
	}
	// A stalled object store must not hold up the view for long.
	readCtx, cancel := context.WithTimeout(ctx, resumeSniffTimeout)
	defer cancel()
	head, err := blob.Head(readCtx, *a.ResumeKey, resume.HeadSize)
	if err != nil {
		log.WarnContext(ctx, "resume type: read the object", "application_id", a.ID, "err", err)
		return resume.Type{}
	}
	t, err := resume.Sniff(head)
	if err != nil {
		log.WarnContext(ctx, "resume type: unknown signature", "application_id", a.ID, "err", err)
		return resume.Type{}
	}
	kind := t.Kind()
	if err := q.ApplicationFillResumeType(ctx, db.ApplicationFillResumeTypeParams{
		ID: a.ID, ResumeKey: a.ResumeKey, ResumeType: &kind,
	}); err != nil {
		log.WarnContext(ctx, "resume type: store it", "application_id", a.ID, "err", err)
	}
	return t
}
