package hackathon

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/broadcast"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/signing"
)

// The transactions of the ApplicationWindow workflow (through its
// activities): announce an edition's opening, remind the owners of drafts
// before its close, and sum it up for the superadmins at the close. Each is
// safe to run again: the announcement is one broadcast per edition, each
// reminder one email per application, each summary one email per
// superadmin and closing time.

// Dates are an edition's application window as the ApplicationWindow
// workflow acts on it: its input, its signal and the dates it reads back
// carry this one type.
type Dates struct {
	OpensAt  time.Time
	ClosesAt *time.Time
}

// DatesOf are h's window dates.
func DatesOf(h db.Hackathon) Dates {
	return Dates{OpensAt: h.ApplicationsOpenAt, ClosesAt: h.ApplicationsCloseAt}
}

// WindowDates reads an edition's window as it is now; an edition that does
// not exist is db.ErrNotFound.
func WindowDates(ctx context.Context, q *db.Queries, id uuid.UUID) (Dates, error) {
	h, err := q.HackathonGet(ctx, id)
	if err != nil {
		return Dates{}, fmt.Errorf("hackathon %s: %w", id, err)
	}
	return DatesOf(h), nil
}

// Email templates of the window emails.
const (
	ReminderKind = "apply_reminder"
	SummaryKind  = "apply_summary"
)

// emailDateFormat is how an email gives a time (UTC).
const emailDateFormat = "Mon 2 Jan 2006 15:04 MST"

// announcementSpace derives the announcement broadcast's id from the
// edition's: one announcement per edition, whichever run makes it.
var announcementSpace = uuid.MustParse("5b0c4a52-7d8e-4c41-9a3e-1f6d2b7c9e10")

// AnnouncementID is the id of edition id's opening announcement (a
// broadcast).
func AnnouncementID(id uuid.UUID) uuid.UUID {
	return uuid.NewSHA1(announcementSpace, []byte("hackathon-announcement:"+id.String()))
}

// AnnounceInput names an edition whose window opens; WorkflowID is the
// announcement broadcast's workflow ID (the workflows package names it).
type AnnounceInput struct {
	HackathonID uuid.UUID
	PublicURL   string
	WorkflowID  string
}

// Announcement is the broadcast that announces an opening: its id, subject
// and number of recipients, for the caller to start its Broadcast
// workflow. The zero value means nothing is announced.
type Announcement struct {
	BroadcastID uuid.UUID
	Subject     string
	Total       int
}

// Announce records the broadcast announcing edition in.HackathonID's
// opening to the marketing audience (everyone who accepts marketing
// email), as from the superadmin who last saved the edition, and returns
// it. Nothing is announced unless the edition asks for it (announce), is
// the current one (the applicant routes act on it), and its opening was
// still ahead when it was last saved. Run again, it returns the broadcast
// it recorded.
func Announce(ctx context.Context, q *db.Queries, in AnnounceInput) (Announcement, error) {
	h, err := q.HackathonGet(ctx, in.HackathonID)
	if err != nil {
		return Announcement{}, fmt.Errorf("hackathon %s: %w", in.HackathonID, err)
	}
	id := AnnouncementID(h.ID)
	b, err := q.BroadcastGet(ctx, id)
	switch {
	case err == nil:
		return Announcement{BroadcastID: b.ID, Subject: b.Subject, Total: int(b.Total)}, nil
	case !errors.Is(err, db.ErrNotFound):
		return Announcement{}, err
	}
	if !h.Announce || !h.Current || h.SavedBy == nil || !h.ApplicationsOpenAt.After(h.UpdatedAt) {
		return Announcement{}, nil
	}
	req := broadcast.Request{Subject: "Applications for " + h.Name + " are open",
		Body: announcementBody(h, strings.TrimRight(in.PublicURL, "/")), Audience: &broadcast.RequestAudience{Kind: broadcast.Marketing}}
	if err := req.Validate().Err(); err != nil {
		return Announcement{}, err
	}
	b, err = broadcast.Create(ctx, q, broadcast.New{ID: id, WorkflowID: in.WorkflowID, CreatedBy: *h.SavedBy, Request: req})
	if err != nil {
		return Announcement{}, err
	}
	return Announcement{BroadcastID: b.ID, Subject: b.Subject, Total: int(b.Total)}, nil
}

func announcementBody(h db.Hackathon, publicURL string) string {
	until := ""
	if h.ApplicationsCloseAt != nil {
		until = " until " + h.ApplicationsCloseAt.UTC().Format(emailDateFormat)
	}
	return "Applications for " + h.Name + " are open" + until + ".\n\nApply here: " + publicURL + "/apply\n"
}

// Notice names an edition's window whose people are emailed: its close
// (the reminder's and the summary's subject) and the base of the links.
type Notice struct {
	HackathonID uuid.UUID
	ClosesAt    time.Time
	PublicURL   string
}

// ReminderKey is the idempotency key of the reminder about a draft: once
// per application, whatever the close moves to.
func ReminderKey(applicationID uuid.UUID) string { return "apply-reminder:" + applicationID.String() }

// SummaryKey is the idempotency key of a superadmin's summary of a close:
// once per person and closing time.
func SummaryKey(n Notice, profileID uuid.UUID) string {
	return "apply-summary:" + n.HackathonID.String() + ":" + strconv.FormatInt(n.ClosesAt.Unix(), 10) + ":" + profileID.String()
}

// RecordReminders records one reminder per unsubmitted draft of the
// edition, to its owner, whatever their marketing choice (it is about
// their own application), with the unsubscribe link of the club's
// marketing email; once per application. An edition that is not the
// current one is not reminded: its drafts can no longer be submitted. It
// returns every reminder for the caller to send.
func RecordReminders(ctx context.Context, q *db.Queries, unsubscribe signing.Signer, n Notice) ([]mail.Ref, error) {
	h, err := q.HackathonGet(ctx, n.HackathonID)
	if err != nil {
		return nil, fmt.Errorf("hackathon %s: %w", n.HackathonID, err)
	}
	if !h.Current {
		return nil, nil
	}
	rows, err := q.HackathonDraftOwners(ctx, h.ID)
	if err != nil {
		return nil, err
	}
	base := strings.TrimRight(n.PublicURL, "/")
	refs := make([]mail.Ref, 0, len(rows))
	for _, row := range rows {
		ref, err := mail.RecordRef(ctx, q, ReminderKey(row.ApplicationID), ReminderKind, row.Email, map[string]string{
			"name": row.Name, "hackathon": h.Name, "closes": n.ClosesAt.UTC().Format(emailDateFormat),
			"link": base + "/apply", "unsubscribe": broadcast.UnsubscribeLink(base, unsubscribe, row.ProfileID),
		})
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// RecordSummary records, for each superadmin, the summary of the edition's
// close: how many applications were submitted and how many drafts were
// left. It returns them for the caller to send.
func RecordSummary(ctx context.Context, q *db.Queries, n Notice) ([]mail.Ref, error) {
	h, err := q.HackathonGet(ctx, n.HackathonID)
	if err != nil {
		return nil, fmt.Errorf("hackathon %s: %w", n.HackathonID, err)
	}
	counts, err := q.HackathonWindowCounts(ctx, h.ID)
	if err != nil {
		return nil, err
	}
	rows, err := q.HackathonSummaryRecipients(ctx)
	if err != nil {
		return nil, err
	}
	link := strings.TrimRight(n.PublicURL, "/") + "/admin/dashboard?hackathon=" + h.ID.String()
	refs := make([]mail.Ref, 0, len(rows))
	for _, row := range rows {
		ref, err := mail.RecordRef(ctx, q, SummaryKey(n, row.ID), SummaryKind, row.Email, map[string]string{
			"name": row.Name, "hackathon": h.Name, "closed": n.ClosesAt.UTC().Format(emailDateFormat),
			"submitted": strconv.FormatInt(counts.Submitted, 10), "drafts": strconv.FormatInt(counts.Drafts, 10), "link": link,
		})
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// FutureWindow is an edition whose window has something ahead (the
// reconciler starts its missing ApplicationWindow run).
type FutureWindow struct {
	HackathonID uuid.UUID
	Dates       Dates
	// PublicURL is the site address the edition's ApplicationWindow was
	// last queued with (the API's PUBLIC_URL); empty when none is known
	// (the reconciler then uses its own).
	PublicURL string
}

// FutureWindows lists the editions whose opening or close is after now,
// oldest first.
func FutureWindows(ctx context.Context, q *db.Queries, now time.Time) ([]FutureWindow, error) {
	rows, err := q.HackathonListFutureWindows(ctx, now)
	if err != nil {
		return nil, err
	}
	out := make([]FutureWindow, len(rows))
	for i, h := range rows {
		url, err := q.WorkflowStartPublicURL(ctx, WindowWorkflowID(h.ID))
		if err != nil {
			return nil, err
		}
		out[i] = FutureWindow{HackathonID: h.ID, Dates: DatesOf(h), PublicURL: url}
	}
	return out, nil
}

// WindowWorkflowID is the workflow ID of an edition's ApplicationWindow
// run, from its business key (workflows.ApplicationWindowID).
func WindowWorkflowID(hackathonID uuid.UUID) string {
	return "application-window:" + hackathonID.String()
}
