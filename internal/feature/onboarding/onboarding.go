// Package onboarding holds the rules of the exec forms: the onboarding form
// (new execs of a term) and the returning-exec form (execs of the term
// before it). Each is open only during its term window, judged against the
// database clock; outside it a caller is told when it opens or closed.
//
// It also holds the transactions that apply them, as functions over
// *db.Queries: opening a form, submitting it, storing a headshot (form.go,
// headshot.go), the reviewers' list and exports (review.go), and the
// window's emails and close that the TermWindow workflow's activities
// record (windows.go). The API and the activities call the same functions.
package onboarding

import (
	"bytes"
	"fmt"
	"net/mail"
	"path"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/internal/feature/term"
)

// Kind is which form: onboarding or returning.
type Kind string

const (
	Onboarding Kind = "onboarding"
	Returning  Kind = "returning"
)

// Valid reports whether k is a known form.
func (k Kind) Valid() bool { return k == Onboarding || k == Returning }

// Title names the form in window messages.
func (k Kind) Title() string {
	if k == Returning {
		return "The returning-exec form"
	}
	return "Onboarding"
}

// FormName names the form in emails.
func (k Kind) FormName() string {
	if k == Returning {
		return "The returning-exec form"
	}
	return "The onboarding form"
}

// Path is the form's page on the web site.
func (k Kind) Path() string {
	if k == Returning {
		return "/onboarding/returning"
	}
	return "/onboarding"
}

// MaxHeadshot is the largest headshot accepted (5 MB).
const MaxHeadshot = 5 << 20

// dateFormat is how a window's times appear in messages (always UTC).
const dateFormat = "2 January 2006 15:04 UTC"

// Window is a form's state at one instant, as the API shows it.
type Window struct {
	OpensAt  *time.Time `json:"opens_at"`
	ClosesAt *time.Time `json:"closes_at"`
	Open     bool       `json:"open"`
	// Message says why a closed form is closed; empty when open.
	Message string `json:"-"`
}

// WindowAt judges a form's window at now: open from opensAt (inclusive)
// until closesAt (exclusive). A term without the window has the form
// closed with a message saying it is not scheduled.
func WindowAt(kind Kind, term string, opensAt, closesAt *time.Time, now time.Time) Window {
	w := Window{OpensAt: opensAt, ClosesAt: closesAt}
	prefix := kind.Title() + " for " + term
	switch {
	case opensAt == nil || closesAt == nil:
		w.Message = prefix + " is not scheduled yet"
	case now.Before(*opensAt):
		w.Message = prefix + " opens " + opensAt.UTC().Format(dateFormat)
	case !now.Before(*closesAt):
		w.Message = prefix + " closed on " + closesAt.UTC().Format(dateFormat)
	default:
		w.Open = true
	}
	return w
}

// Eligible reports whether a person may use the form: the onboarding form
// is for people holding an exec role in the term, the returning form for
// people who held one in the term before it (false when there is none).
func Eligible(kind Kind, holdsRoleInTerm, heldRoleInPrevious bool) bool {
	if kind == Returning {
		return heldRoleInPrevious
	}
	return holdsRoleInTerm
}

// DefaultRoles are the role options of a term without positions.
var DefaultRoles = term.ExecPositions()

// RoleOptions are the titles of the term's positions (distinct, in order)
// or DefaultRoles when it has none.
func RoleOptions(titles []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range titles {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return append([]string(nil), DefaultRoles...)
	}
	return out
}

// TermTypes and Competencies are the allowed values of those fields.
var (
	TermTypes    = []string{"full_year", "fall", "winter", "summer"}
	Competencies = []string{"none", "beginner", "intermediate", "advanced"}
)

// Submission is a form's fields as submitted.
type Submission struct {
	DisplayName     string
	Email           string
	Role            string
	TermType        string
	HeadshotKey     *string
	HeadshotConsent bool
	ChatHandle      string
	PhotoHandle     string
	DsCompetency    string
}

// Validate checks a submission (already trimmed) and returns the reason
// per field; ownKeys are the headshot keys the caller may point at.
func Validate(s Submission, roleOptions []string, ownKeys []string) map[string]string {
	f := map[string]string{}
	if n := len([]rune(s.DisplayName)); n < 1 || n > 100 {
		f["display_name"] = "must be 1 to 100 characters"
	}
	if a, err := mail.ParseAddress(s.Email); err != nil || a.Address != s.Email || utf8.RuneCountInString(s.Email) > 254 {
		f["email"] = "must be an email address"
	}
	if !contains(roleOptions, s.Role) {
		f["role"] = "must be one of " + strings.Join(roleOptions, ", ")
	}
	if !contains(TermTypes, s.TermType) {
		f["term_type"] = "must be one of " + strings.Join(TermTypes, ", ")
	}
	if !contains(Competencies, s.DsCompetency) {
		f["ds_competency"] = "must be one of " + strings.Join(Competencies, ", ")
	}
	if len([]rune(s.ChatHandle)) > 100 {
		f["chat_handle"] = "must be at most 100 characters"
	}
	if len([]rune(s.PhotoHandle)) > 100 {
		f["photo_handle"] = "must be at most 100 characters"
	}
	if s.HeadshotKey != nil {
		if !contains(ownKeys, *s.HeadshotKey) {
			f["headshot_key"] = "must be the key of your uploaded headshot"
		} else if !s.HeadshotConsent {
			f["headshot_consent"] = "must be true to submit a headshot"
		}
	}
	return f
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Image is a detected headshot type.
type Image struct {
	Ext         string
	ContentType string
}

var (
	jpegMagic = []byte{0xFF, 0xD8, 0xFF}
	pngMagic  = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}
)

// DetectImage recognises a JPEG or PNG by its first bytes.
func DetectImage(data []byte) (Image, bool) {
	switch {
	case bytes.HasPrefix(data, pngMagic):
		return Image{Ext: "png", ContentType: "image/png"}, true
	case bytes.HasPrefix(data, jpegMagic):
		return Image{Ext: "jpg", ContentType: "image/jpeg"}, true
	}
	return Image{}, false
}

// HeadshotKey is where a person's headshot for a term and form is stored.
func HeadshotKey(term uuid.UUID, kind Kind, profile uuid.UUID, ext string) string {
	return fmt.Sprintf("headshots/%s/%s/%s.%s", term, kind, profile, ext)
}

// HeadshotKeys are every key a person's headshot may have.
func HeadshotKeys(term uuid.UUID, kind Kind, profile uuid.UUID) []string {
	return []string{HeadshotKey(term, kind, profile, "jpg"), HeadshotKey(term, kind, profile, "png")}
}

// CSVCell neutralises a cell a spreadsheet would read as a formula: one
// starting with = + - @, a tab or a carriage return gets a leading '.
func CSVCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

var unsafeName = regexp.MustCompile(`[^\p{L}\p{N}._ -]+`)

// ZipName is a headshot's name in the archive: the display name made safe
// (letters, digits, space, dot, dash, underscore; no leading dots), then the
// profile id, which makes it unique, and the key's extension.
func ZipName(displayName string, profile uuid.UUID, key string) string {
	name := unsafeName.ReplaceAllString(displayName, "_")
	name = strings.TrimLeftFunc(name, func(r rune) bool { return r == '.' || unicode.IsSpace(r) })
	name = strings.TrimRightFunc(name, unicode.IsSpace)
	if r := []rune(name); len(r) > 80 {
		name = string(r[:80])
	}
	if name == "" {
		name = "headshot"
	}
	return name + "-" + profile.String() + path.Ext(key)
}
