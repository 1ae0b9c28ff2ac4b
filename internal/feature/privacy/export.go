package privacy

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/application"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/platform/storage"
)

// A person's export (GET /api/me/export): everything the club keeps about
// them as data.json, with their résumé and headshot files, in a ZIP
// streamed as it is read. Reviewers' identities and individual scores stay
// out; each application says how many reviews it had. The access log
// tells which staff roles read their data and when, never who.

// DataFile is the name of the export's JSON entry.
const DataFile = "data.json"

// Export is data.json.
type Export struct {
	ExportedAt   time.Time          `json:"exported_at"`
	Profile      ExportProfile      `json:"profile"`
	Applications []ExportApp        `json:"applications"`
	Memberships  []ExportMembership `json:"memberships"`
	ExecRoles    []ExportExecRole   `json:"exec_roles"`
	Submissions  []ExportSubmission `json:"onboarding_submissions"`
	Emails       []ExportEmail      `json:"emails"`
	Sessions     []ExportSession    `json:"sessions"`
	StaffReads   []ExportRead       `json:"staff_reads"`
	Volunteering []ExportVolunteer  `json:"volunteering"`
	// Files lists the ZIP's other entries and what each is.
	Files []ExportFile `json:"files"`
}

// ExportProfile is the account.
type ExportProfile struct {
	ID               uuid.UUID  `json:"id"`
	Email            string     `json:"email"`
	DisplayName      *string    `json:"display_name"`
	Role             string     `json:"role"`
	EmailConfirmedAt *time.Time `json:"email_confirmed_at"`
	MarketingOptIn   bool       `json:"marketing_opt_in"`
	CreatedAt        time.Time  `json:"created_at"`
}

// ExportApp is one application of one edition, with its answers, the
// decision and RSVP events, the exec positions applied for, and the number
// of reviews.
type ExportApp struct {
	application.View
	Hackathon   ExportRef  `json:"hackathon"`
	ResumeName  *string    `json:"resume_name"`
	ResumeFile  *string    `json:"resume_file"` // the ZIP entry
	ReviewCount int32      `json:"review_count"`
	DecidedAt   *time.Time `json:"decided_at"`
	PurgedAt    *time.Time `json:"purged_at"`
	// The event day: the waiver accepted at the RSVP and the check-in at
	// the door (diet and T-shirt size are the application's fields).
	WaiverAcceptedAt *time.Time          `json:"waiver_accepted_at"`
	CheckedInAt      *time.Time          `json:"checked_in_at"`
	Questions        []hiring.AnswerView `json:"question_answers"`
	Events           []ExportEvent       `json:"events"`
	Positions        []ExportPosition    `json:"positions"`
}

// ExportVolunteer is an edition whose door the person volunteers at,
// without who added them.
type ExportVolunteer struct {
	Hackathon ExportRef `json:"hackathon"`
	Since     time.Time `json:"since"`
}

// ExportRef names an edition or a term.
type ExportRef struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

// ExportEvent is a decision, an RSVP, an expiry or a reminder, without
// who acted.
type ExportEvent struct {
	Kind   string          `json:"kind"`
	Detail json.RawMessage `json:"detail"`
	At     time.Time       `json:"at"`
}

// ExportPosition is an exec position applied for and where it stands.
type ExportPosition struct {
	Title     string    `json:"title"`
	Subteam   string    `json:"subteam"`
	Term      string    `json:"term"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// ExportMembership is a term's membership and its payment.
type ExportMembership struct {
	ID          uuid.UUID  `json:"id"`
	Term        string     `json:"term"`
	Status      string     `json:"status"`
	AmountCents *int64     `json:"amount_cents"`
	Method      *string    `json:"method"`
	PaidAt      *time.Time `json:"paid_at"`
	CreatedAt   time.Time  `json:"created_at"`
}

// ExportExecRole is an exec role held.
type ExportExecRole struct {
	Position  string     `json:"position"`
	Subteam   *string    `json:"subteam"`
	Term      *string    `json:"term"`
	Active    bool       `json:"active"`
	CreatedAt time.Time  `json:"created_at"`
	EndedAt   *time.Time `json:"ended_at"`
}

// ExportSubmission is an onboarding or returning-exec form.
type ExportSubmission struct {
	ID              uuid.UUID `json:"id"`
	Term            string    `json:"term"`
	Kind            string    `json:"kind"`
	DisplayName     string    `json:"display_name"`
	Email           string    `json:"email"`
	Role            string    `json:"role"`
	TermType        string    `json:"term_type"`
	HeadshotConsent bool      `json:"headshot_consent"`
	HeadshotFile    *string   `json:"headshot_file"` // the ZIP entry
	ChatHandle      string    `json:"chat_handle"`
	PhotoHandle     string    `json:"photo_handle"`
	DSCompetency    string    `json:"ds_competency"`
	SubmittedAt     time.Time `json:"submitted_at"`
	UpdatedAt       time.Time `json:"updated_at"`
}

// ExportEmail is an email the club sent the person.
type ExportEmail struct {
	Kind      string     `json:"kind"`
	Subject   string     `json:"subject"`
	Text      string     `json:"text"`
	Status    string     `json:"status"`
	CreatedAt time.Time  `json:"created_at"`
	SentAt    *time.Time `json:"sent_at"`
}

// ExportSession is a sign-in.
type ExportSession struct {
	CreatedAt  time.Time  `json:"created_at"`
	LastSeenAt time.Time  `json:"last_seen_at"`
	ExpiresAt  time.Time  `json:"expires_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
}

// ExportRead is a staff read of the person's data: the staff role at the
// time and when, never who.
type ExportRead struct {
	Role   string     `json:"role"`
	Action string     `json:"action"`
	Object *uuid.UUID `json:"object_id"`
	At     time.Time  `json:"at"`
}

// ExportFile is one file entry of the ZIP.
type ExportFile struct {
	Name string `json:"name"`
	What string `json:"what"` // resume, headshot
	key  string
}

// Collect reads everything about profile id for its export, in the
// snapshot behind q.
func Collect(ctx context.Context, q *db.Queries, id uuid.UUID) (Export, error) {
	out := Export{ExportedAt: time.Now().UTC(), Applications: []ExportApp{}, Memberships: []ExportMembership{},
		ExecRoles: []ExportExecRole{}, Submissions: []ExportSubmission{}, Emails: []ExportEmail{},
		Sessions: []ExportSession{}, StaffReads: []ExportRead{}, Volunteering: []ExportVolunteer{}, Files: []ExportFile{}}
	p, err := q.ExportProfile(ctx, id)
	if err != nil {
		return out, err
	}
	out.Profile = ExportProfile{ID: p.ID, Email: p.Email, DisplayName: p.DisplayName, Role: p.Role,
		EmailConfirmedAt: p.EmailConfirmedAt, MarketingOptIn: p.MarketingOptIn, CreatedAt: p.CreatedAt}
	if err := collectApplications(ctx, q, id, &out); err != nil {
		return out, err
	}
	ms, err := q.ExportMemberships(ctx, id)
	if err != nil {
		return out, err
	}
	for _, m := range ms {
		out.Memberships = append(out.Memberships, ExportMembership{ID: m.ID, Term: m.TermName, Status: m.Status,
			AmountCents: m.AmountCents, Method: m.Method, PaidAt: m.PaidAt, CreatedAt: m.CreatedAt})
	}
	roles, err := q.ExportExecRoles(ctx, id)
	if err != nil {
		return out, err
	}
	for _, r := range roles {
		out.ExecRoles = append(out.ExecRoles, ExportExecRole{Position: r.Position, Subteam: r.Subteam, Term: r.TermName,
			Active: r.Active, CreatedAt: r.CreatedAt, EndedAt: r.EndedAt})
	}
	subs, err := q.ExportSubmissions(ctx, id)
	if err != nil {
		return out, err
	}
	for _, s := range subs {
		e := ExportSubmission{ID: s.ID, Term: s.TermName, Kind: s.Kind, DisplayName: s.DisplayName, Email: s.Email,
			Role: s.Role, TermType: s.TermType, HeadshotConsent: s.HeadshotConsent, ChatHandle: s.ChatHandle,
			PhotoHandle: s.PhotoHandle, DSCompetency: s.DsCompetency, SubmittedAt: s.SubmittedAt, UpdatedAt: s.UpdatedAt}
		if s.HeadshotKey != nil {
			name := fileName("headshots", s.TermName+"-"+s.Kind+path.Ext(*s.HeadshotKey), len(out.Files))
			e.HeadshotFile = &name
			out.Files = append(out.Files, ExportFile{Name: name, What: "headshot", key: *s.HeadshotKey})
		}
		out.Submissions = append(out.Submissions, e)
	}
	emails, err := q.ExportEmails(ctx, p.Email)
	if err != nil {
		return out, err
	}
	for _, e := range emails {
		out.Emails = append(out.Emails, ExportEmail{Kind: e.Kind, Subject: e.Subject, Text: e.TextBody,
			Status: e.Status, CreatedAt: e.CreatedAt, SentAt: e.SentAt})
	}
	sessions, err := q.ExportSessions(ctx, id)
	if err != nil {
		return out, err
	}
	for _, s := range sessions {
		out.Sessions = append(out.Sessions, ExportSession{CreatedAt: s.CreatedAt, LastSeenAt: s.LastSeenAt,
			ExpiresAt: s.ExpiresAt, RevokedAt: s.RevokedAt})
	}
	reads, err := q.AccessLogForSubject(ctx, id)
	if err != nil {
		return out, err
	}
	for _, r := range reads {
		out.StaffReads = append(out.StaffReads, ExportRead{Role: r.ActorRole, Action: r.Action, Object: r.ObjectID, At: r.At})
	}
	vols, err := q.ExportVolunteering(ctx, id)
	if err != nil {
		return out, err
	}
	for _, v := range vols {
		out.Volunteering = append(out.Volunteering, ExportVolunteer{Hackathon: ExportRef{ID: v.HackathonID, Name: v.HackathonName}, Since: v.CreatedAt})
	}
	return out, nil
}

func collectApplications(ctx context.Context, q *db.Queries, id uuid.UUID, out *Export) error {
	apps, err := q.ExportApplications(ctx, id)
	if err != nil {
		return err
	}
	ids := make([]uuid.UUID, len(apps))
	for i, a := range apps {
		ids[i] = a.Application.ID
	}
	answers, err := hiring.AnswersOf(ctx, q, ids...)
	if err != nil {
		return err
	}
	events, err := q.ExportApplicationEvents(ctx, id)
	if err != nil {
		return err
	}
	byApp := map[uuid.UUID][]ExportEvent{}
	for _, e := range events {
		byApp[e.ApplicationID] = append(byApp[e.ApplicationID], ExportEvent{Kind: e.Kind, Detail: e.Detail, At: e.CreatedAt})
	}
	sels, err := q.ExportSelections(ctx, id)
	if err != nil {
		return err
	}
	positions := map[uuid.UUID][]ExportPosition{}
	for _, s := range sels {
		positions[s.ApplicationID] = append(positions[s.ApplicationID], ExportPosition{Title: s.Title, Subteam: s.Subteam,
			Term: s.TermName, Status: s.Status, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt})
	}
	for _, row := range apps {
		a := row.Application
		v := application.ToView(a)
		v.Answers = hiring.AnswerMap(answers[a.ID])
		e := ExportApp{View: v, Hackathon: ExportRef{ID: a.HackathonID, Name: row.HackathonName},
			ResumeName: a.ResumeName, ReviewCount: a.ReviewCount, DecidedAt: a.DecidedAt, PurgedAt: a.PurgedAt,
			WaiverAcceptedAt: a.WaiverAcceptedAt, CheckedInAt: a.CheckedInAt,
			Questions: hiring.AnswerList(answers[a.ID]), Events: orEmpty(byApp[a.ID]), Positions: orEmpty(positions[a.ID])}
		if e.Questions == nil {
			e.Questions = []hiring.AnswerView{}
		}
		if a.ResumeKey != nil {
			base := path.Base(*a.ResumeKey)
			if a.ResumeName != nil {
				base = *a.ResumeName
			}
			name := fileName("resumes", row.HackathonName+"-"+base, len(out.Files))
			e.ResumeFile = &name
			out.Files = append(out.Files, ExportFile{Name: name, What: "resume", key: *a.ResumeKey})
		}
		out.Applications = append(out.Applications, e)
	}
	return nil
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

var unsafeEntry = regexp.MustCompile(`[^A-Za-z0-9._ -]+`)

// fileName is a ZIP entry under dir for a file named name, made safe (no
// path, no odd characters) and unique by its position n.
func fileName(dir, name string, n int) string {
	name = strings.TrimLeft(unsafeEntry.ReplaceAllString(name, "_"), ". ")
	if r := []rune(name); len(r) > 120 {
		name = string(r[len(r)-120:])
	}
	if name == "" {
		name = "file"
	}
	return fmt.Sprintf("%s/%02d-%s", dir, n+1, name)
}

// Archive is an export ready to stream: its files opened, so that its
// exact size is known before the first byte is sent (the page shows the
// download's progress against Content-Length).
type Archive struct {
	export Export
	data   []byte
	bodies []io.ReadCloser
	sizes  []int64
}

// Open opens every file of e in the object store. A file the store no
// longer has leaves the export (its entry in data.json says null). The
// caller closes the archive.
func Open(ctx context.Context, objs Objects, log *slog.Logger, e Export) (*Archive, error) {
	a := &Archive{export: e}
	missing := map[string]bool{}
	var files []ExportFile
	for _, f := range e.Files {
		body, size, err := objs.Get(ctx, f.key)
		if errors.Is(err, storage.ErrNotFound) {
			log.WarnContext(ctx, "export: a file is missing from the object store", "what", f.What)
			missing[f.Name] = true
			continue
		}
		if err != nil {
			a.Close()
			return nil, err
		}
		files = append(files, f)
		a.bodies = append(a.bodies, body)
		a.sizes = append(a.sizes, size)
	}
	a.export.Files = orEmpty(files)
	for i := range a.export.Applications {
		if f := a.export.Applications[i].ResumeFile; f != nil && missing[*f] {
			a.export.Applications[i].ResumeFile = nil
		}
	}
	for i := range a.export.Submissions {
		if f := a.export.Submissions[i].HeadshotFile; f != nil && missing[*f] {
			a.export.Submissions[i].HeadshotFile = nil
		}
	}
	data, err := json.MarshalIndent(a.export, "", "  ")
	if err != nil {
		a.Close()
		return nil, err
	}
	a.data = data
	return a, nil
}

// Close closes the files not yet streamed.
func (a *Archive) Close() {
	for _, b := range a.bodies {
		if b != nil {
			b.Close()
		}
	}
}

// Size is the archive's length in bytes: a dry run of WriteTo over
// zeros of the files' sizes (every entry is stored, so the length does not
// depend on the content).
func (a *Archive) Size() (int64, error) {
	var c countingWriter
	err := a.write(&c, func(i int) io.Reader { return io.LimitReader(zeros{}, a.sizes[i]) })
	return c.n, err
}

// WriteTo writes the ZIP to w: data.json, then each file as the object
// store streams it, every entry stored (not deflated), so memory stays
// small whatever the files weigh. A failure ends the archive without its
// central directory (the client sees a broken download); the status has
// been sent, so the caller logs it.
func (a *Archive) WriteTo(w io.Writer) (int64, error) {
	c := countingWriter{w: w}
	err := a.write(&c, func(i int) io.Reader { return io.LimitReader(a.bodies[i], a.sizes[i]) })
	return c.n, err
}

func (a *Archive) write(w io.Writer, file func(int) io.Reader) error {
	zw := zip.NewWriter(w)
	at := a.export.ExportedAt
	fw, err := zw.CreateHeader(&zip.FileHeader{Name: DataFile, Method: zip.Store, Modified: at})
	if err != nil {
		return err
	}
	if _, err := fw.Write(a.data); err != nil {
		return err
	}
	for i, f := range a.export.Files {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Store, Modified: at})
		if err != nil {
			return err
		}
		n, err := io.Copy(fw, file(i))
		if err != nil {
			return err
		}
		if n != a.sizes[i] {
			return fmt.Errorf("export: %s: %d of %d bytes", f.What, n, a.sizes[i])
		}
	}
	return zw.Close()
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.w == nil {
		c.n += int64(len(p))
		return len(p), nil
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
