package e2e

import (
	"bytes"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"hackdesk/app"
	"hackdesk/dev/testenv"
)

// adminRowJSON is one row of GET /api/admin/applications.
type adminRowJSON struct {
	ID         uuid.UUID `json:"id"`
	Name       *string   `json:"name"`
	Email      string    `json:"email"`
	University *string   `json:"university"`
	Gender     *string   `json:"gender"`
	Reviews    int       `json:"reviews"`
	Date       time.Time `json:"date"`
	Status     string    `json:"status"`
	Decision   *string   `json:"decision"`
	Rsvp       *string   `json:"rsvp"`
}

type adminPageJSON struct {
	Applications []adminRowJSON `json:"applications"`
	Total        int            `json:"total"`
	Page         int            `json:"page"`
	PageSize     int            `json:"page_size"`
}

type adminReviewJSON struct {
	ID            uuid.UUID `json:"id"`
	ReviewerID    uuid.UUID `json:"reviewer_id"`
	ReviewerName  *string   `json:"reviewer_name"`
	ReviewerEmail string    `json:"reviewer_email"`
	ResumeScore   int       `json:"resume_score"`
	LinksScore    int       `json:"links_score"`
	Q1Score       int       `json:"q1_score"`
	Q2Score       int       `json:"q2_score"`
	ReviewedAt    time.Time `json:"reviewed_at"`
}

type adminDetailsJSON struct {
	Application struct {
		ID                   uuid.UUID `json:"id"`
		Status               string    `json:"status"`
		Email                *string   `json:"email"`
		University           *string   `json:"university"`
		ResumeURL            *string   `json:"resume_url"`
		TeamMembersWithNames []struct {
			Email       string  `json:"email"`
			DisplayName *string `json:"display_name"`
		} `json:"team_members_with_names"`
	} `json:"application"`
	Reviews []adminReviewJSON `json:"reviews"`
}

// adminApplicantSpec is one applicant of the fixed data set.
type adminApplicantSpec struct {
	key        string
	name       string // "" leaves the display name null
	university string // "" leaves it null
	gender     string // "" leaves it null
	appEmail   string // "" keeps the prefilled account email; "-" clears it
	team       string
	submit     bool
}

// The data set, in application creation order. Ties: brian and dennis share
// a university; genders and review counts tie in groups.
var adminApplicantSpecs = []adminApplicantSpec{
	{key: "ada", name: "Ada Lovelace", university: "McGill University", gender: "woman", team: "brian@example.com,hedy@example.com", submit: true},
	{key: "brian", name: "Brian Kernighan", university: "University of Toronto", gender: "man", submit: true},
	{key: "carol", name: "carol shaw", university: "Carleton University", gender: "woman", submit: true},
	{key: "dennis", name: "Dennis Ritchie", university: "University of Toronto", gender: "man", appEmail: "ritchie@bell-labs.example", submit: true},
	{key: "edsger", name: "Edsger Dijkstra", university: "Eindhoven University of Technology", gender: "man"},
	{key: "frances", name: "Frances Allen", university: "University of Michigan", gender: "woman"},
	{key: "grace", name: "Grace Hopper", university: "Yale University", gender: "woman", submit: true},
	{key: "hedy", university: "Queens College", gender: "non-binary", appEmail: "-"},
	{key: "ivan", name: "Ivan Sutherland"},
	{key: "joan", name: "Joan Clarke", university: "University of Cambridge", gender: "woman", submit: true},
	{key: "ken", name: "Ken Thompson", university: "University of California, Berkeley", gender: "man", submit: true},
	{key: "linus", name: "Linus Torvalds", university: "University of Helsinki", gender: "man"},
}

// adminFixture is the data set as built.
type adminFixture struct {
	ids       map[string]uuid.UUID // application id by key
	keys      map[uuid.UUID]string
	clients   map[string]*client // applicants
	submitted map[string]time.Time
	admins    map[string]*client
	adminIDs  map[string]uuid.UUID
	resumes   map[string][]byte
}

// adminReviewPlan is who reviews what, in order, and each admin's scores.
var adminReviewPlan = []struct{ admin, applicant string }{
	{"admin3", "dennis"}, {"admin1", "dennis"}, {"admin2", "dennis"},
	{"admin2", "ada"}, {"admin1", "ada"},
	{"admin1", "ken"}, {"admin3", "ken"},
	{"admin2", "brian"},
	{"admin3", "grace"},
}

var adminScores = map[string][4]int{
	"admin1": {3, 2, 7, 3},
	"admin2": {1, 1, 4, 2},
	"admin3": {0, 0, 0, 0},
}

var adminNames = map[string]string{"admin1": "Admin One", "admin2": "Admin Two", "admin3": "Admin Three"}

func buildAdminFixture(t *testing.T, a *app.App, anon *client) adminFixture {
	t.Helper()
	f := adminFixture{
		ids: map[string]uuid.UUID{}, keys: map[uuid.UUID]string{}, clients: map[string]*client{},
		submitted: map[string]time.Time{}, admins: map[string]*client{}, adminIDs: map[string]uuid.UUID{},
		resumes: map[string][]byte{},
	}
	profiles := map[string]uuid.UUID{}
	// Every account first, so that teams can name anyone.
	for _, s := range adminApplicantSpecs {
		f.clients[s.key], profiles[s.key] = member(t, a, anon, s.key+"@example.com", s.name)
	}
	for _, admin := range []string{"admin1", "admin2", "admin3"} {
		email, pw := admin+"@example.com", "password-"+admin
		p := testenv.Account(t, a.Store, testenv.AccountOpts{Email: email, Name: adminNames[admin], Password: pw, Role: "admin"})
		f.admins[admin], f.adminIDs[admin] = login(t, anon, email, pw), p.ID
	}
	for _, s := range adminApplicantSpecs {
		c := f.clients[s.key]
		created := createApplication(t, c, profiles[s.key])
		f.ids[s.key], f.keys[created.ID] = created.ID, s.key
		patch := map[string]any{}
		if s.submit {
			for _, step := range completeSteps {
				for k, v := range step {
					patch[k] = v
				}
			}
		}
		patch["university"], patch["gender"] = adminNullable(s.university), adminNullable(s.gender)
		switch s.appEmail {
		case "":
		case "-":
			patch["email"] = nil
		default:
			patch["email"] = s.appEmail
		}
		if s.team != "" {
			patch["team_members"] = s.team
		}
		c.expect(http.StatusOK, "PATCH", "/api/applications", patch)
		if !s.submit {
			continue
		}
		f.resumes[s.key] = pdfFile("resume of " + s.key)
		if r := c.upload(s.key+".pdf", f.resumes[s.key]); r.Status != http.StatusOK {
			t.Fatalf("upload for %s = %d %s", s.key, r.Status, r.Body)
		}
		var sub struct {
			Application struct {
				SubmittedAt time.Time `json:"submitted_at"`
			} `json:"application"`
		}
		c.expect(http.StatusOK, "POST", "/api/applications/submit", nil).JSON(t, &sub)
		f.submitted[s.key] = sub.Application.SubmittedAt
	}
	for _, p := range adminReviewPlan {
		sc := adminScores[p.admin]
		f.admins[p.admin].expect(http.StatusOK, "POST", "/api/review/submit", map[string]any{
			"application_id": f.ids[p.applicant].String(),
			"resume_score":   sc[0], "links_score": sc[1], "q1_score": sc[2], "q2_score": sc[3],
		})
	}
	// Decisions have their own endpoint; the table only shows them, so the
	// fixture writes them directly.
	testenv.Decide(t, a.Store, f.ids["grace"], testenv.Decision{Decision: "offer", Rsvp: "attending"})
	testenv.Decide(t, a.Store, f.ids["joan"], testenv.Decision{Decision: "reject"})
	return f
}

func adminNullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// adminList fetches one page of the admin table.
func adminList(t *testing.T, c *client, query url.Values) adminPageJSON {
	t.Helper()
	var p adminPageJSON
	c.expect(http.StatusOK, "GET", "/api/admin/applications?"+query.Encode(), nil).JSON(t, &p)
	return p
}

// order names the rows of a page by fixture key.
func (f adminFixture) order(p adminPageJSON) string {
	keys := make([]string, len(p.Applications))
	for i, r := range p.Applications {
		keys[i] = f.keys[r.ID]
	}
	return strings.Join(keys, " ")
}

// expectOrder expands an order written as space-separated groups of tied
// keys ("a b|c d"): tied rows are ordered by application id, ascending or
// descending with the sort.
func (f adminFixture) expectOrder(spec string, desc bool) string {
	var out []string
	for _, group := range strings.Fields(spec) {
		keys := strings.Split(group, "|")
		sort.Slice(keys, func(i, j int) bool {
			a, b := f.ids[keys[i]].String(), f.ids[keys[j]].String()
			if desc {
				return a > b
			}
			return a < b
		})
		out = append(out, keys...)
	}
	return strings.Join(out, " ")
}

func adminQuery(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

func TestAdminApplications(t *testing.T) {
	t.Parallel()
	a, anon := newApp(t)
	f := buildAdminFixture(t, a, anon)
	admin := f.admins["admin1"]

	t.Run("Access", func(t *testing.T) {
		anon := &client{t: t, base: anon.base}
		paths := []string{"/api/admin/applications", "/api/admin/applications/" + f.ids["ada"].String()}
		for _, p := range paths {
			if r := anon.expect(http.StatusUnauthorized, "GET", p, nil); r.Map(t)["error"] != "Unauthorized" {
				t.Fatalf("anonymous %s: %s", p, r.Body)
			}
			// An applicant (a member) cannot read the table, not even their own row.
			if r := f.clients["ada"].expect(http.StatusForbidden, "GET", p, nil); r.Map(t)["error"] == nil {
				t.Fatalf("member %s: %s", p, r.Body)
			}
		}
		super := testenv.Account(t, a.Store, testenv.AccountOpts{Email: "root@example.com", Name: "Root", Role: "superadmin"})
		sc := &client{t: t, base: anon.base, token: newSession(t, a.Store, super.ID)}
		for _, p := range paths {
			sc.expect(http.StatusOK, "GET", p, nil)
		}
	})

	t.Run("DefaultNewestFirst", func(t *testing.T) {
		p := adminList(t, admin, nil)
		want := "linus ken joan ivan hedy grace frances edsger dennis carol brian ada"
		if got := f.order(p); got != want || p.Total != 12 || p.Page != 1 || p.PageSize != 25 {
			t.Fatalf("default page = %q total %d page %d size %d, want %q 12 1 25", got, p.Total, p.Page, p.PageSize, want)
		}
	})

	// Every sort column in both directions, over the whole data set. Empty
	// values come last either way; ties go by id in the sort's direction.
	sorts := []struct{ sort, asc, desc string }{
		{"created_at",
			"ada brian carol dennis edsger frances grace hedy ivan joan ken linus",
			"linus ken joan ivan hedy grace frances edsger dennis carol brian ada"},
		// "carol shaw" is lower-case: sorting ignores case. hedy has no name.
		{"name",
			"ada brian carol dennis edsger frances grace ivan joan ken linus hedy",
			"linus ken joan ivan grace frances edsger dennis carol brian ada hedy"},
		// dennis applies as ritchie@bell-labs.example; hedy cleared the
		// application email, so the account's shows (and sorts).
		{"email",
			"ada brian carol edsger frances grace hedy ivan joan ken linus dennis",
			"dennis linus ken joan ivan hedy grace frances edsger carol brian ada"},
		{"university",
			"carol edsger ada hedy ken joan linus frances brian|dennis grace ivan",
			"grace brian|dennis frances linus joan ken hedy ada edsger carol ivan"},
		{"gender",
			"brian|dennis|edsger|ken|linus hedy ada|carol|frances|grace|joan ivan",
			"ada|carol|frances|grace|joan hedy brian|dennis|edsger|ken|linus ivan"},
		{"reviews",
			"carol|edsger|frances|hedy|ivan|joan|linus brian|grace ada|ken dennis",
			"dennis ada|ken brian|grace carol|edsger|frances|hedy|ivan|joan|linus"},
	}
	for _, s := range sorts {
		for _, dir := range []string{"asc", "desc"} {
			t.Run("Sort_"+s.sort+"_"+dir, func(t *testing.T) {
				spec := s.asc
				if dir == "desc" {
					spec = s.desc
				}
				want := f.expectOrder(spec, dir == "desc")
				p := adminList(t, admin, adminQuery("sort", s.sort, "order", dir, "page_size", "50"))
				if got := f.order(p); got != want || p.Total != 12 {
					t.Fatalf("sort=%s order=%s:\n got  %s\n want %s (total %d)", s.sort, dir, got, want, p.Total)
				}
			})
		}
	}

	t.Run("RowContent", func(t *testing.T) {
		rows := map[string]adminRowJSON{}
		for _, r := range adminList(t, admin, adminQuery("page_size", "50")).Applications {
			rows[f.keys[r.ID]] = r
		}
		d := rows["dennis"]
		if d.Name == nil || *d.Name != "Dennis Ritchie" || d.Email != "ritchie@bell-labs.example" ||
			d.University == nil || *d.University != "University of Toronto" || d.Gender == nil || *d.Gender != "man" ||
			d.Reviews != 3 || d.Status != "submitted" || !d.Date.Equal(f.submitted["dennis"]) || d.Decision != nil || d.Rsvp != nil {
			t.Fatalf("dennis row %+v (submitted at %v)", d, f.submitted["dennis"])
		}
		h := rows["hedy"]
		if h.Name != nil || h.Email != "hedy@example.com" || h.Status != "draft" || h.Reviews != 0 || h.Date.IsZero() {
			t.Fatalf("hedy row %+v", h)
		}
		if i := rows["ivan"]; i.University != nil || i.Gender != nil || i.Email != "ivan@example.com" {
			t.Fatalf("ivan row %+v", i)
		}
		if g := rows["grace"]; g.Decision == nil || *g.Decision != "offer" || g.Rsvp == nil || *g.Rsvp != "attending" {
			t.Fatalf("grace row %+v", g)
		}
		if j := rows["joan"]; j.Decision == nil || *j.Decision != "reject" || j.Rsvp != nil {
			t.Fatalf("joan row %+v", j)
		}
	})

	t.Run("Search", func(t *testing.T) {
		cases := []struct {
			name string
			q    url.Values
			want string
		}{
			{"PartOfName", adminQuery("q", "HOPP"), "grace"},
			{"PartOfNameCaseInsensitive", adminQuery("q", "SHAW"), "carol"},
			{"PartOfApplicationEmail", adminQuery("q", "bell-labs"), "dennis"},
			{"AccountEmailFallback", adminQuery("q", "hedy@EXAMPLE"), "hedy"},
			{"NameOrEmail", adminQuery("q", "an", "sort", "name", "order", "asc"), "brian frances ivan joan"},
			{"EmailDomain", adminQuery("q", "@example.com", "sort", "email", "order", "asc"), "ada brian carol edsger frances grace hedy ivan joan ken linus"},
			{"PercentIsLiteral", adminQuery("q", "%"), ""},
			{"UnderscoreIsLiteral", adminQuery("q", "_"), ""},
			{"PercentInsideIsLiteral", adminQuery("q", "a%e"), ""},
			{"NoMatch", adminQuery("q", "zzz"), ""},
			{"WithStatus", adminQuery("q", "an", "status", "draft", "sort", "name", "order", "asc"), "frances ivan"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				p := adminList(t, admin, c.q)
				if got := f.order(p); got != c.want || p.Total != len(strings.Fields(c.want)) {
					t.Fatalf("%s: got %q (total %d), want %q", c.q.Encode(), got, p.Total, c.want)
				}
			})
		}
	})

	t.Run("StatusFilter", func(t *testing.T) {
		p := adminList(t, admin, adminQuery("status", "submitted", "sort", "name", "order", "asc"))
		if got := f.order(p); got != "ada brian carol dennis grace joan ken" || p.Total != 7 {
			t.Fatalf("submitted = %q total %d", got, p.Total)
		}
		p = adminList(t, admin, adminQuery("status", "draft", "sort", "name", "order", "asc"))
		if got := f.order(p); got != "edsger frances ivan linus hedy" || p.Total != 5 {
			t.Fatalf("drafts = %q total %d", got, p.Total)
		}
		for _, r := range p.Applications {
			if r.Status != "draft" {
				t.Fatalf("draft filter returned %+v", r)
			}
		}
	})

	t.Run("Pagination", func(t *testing.T) {
		p1 := adminList(t, admin, adminQuery("page_size", "10"))
		if got := f.order(p1); got != "linus ken joan ivan hedy grace frances edsger dennis carol" ||
			p1.Total != 12 || p1.Page != 1 || p1.PageSize != 10 {
			t.Fatalf("page 1 = %q total %d page %d size %d", got, p1.Total, p1.Page, p1.PageSize)
		}
		p2 := adminList(t, admin, adminQuery("page_size", "10", "page", "2"))
		if got := f.order(p2); got != "brian ada" || p2.Total != 12 || p2.Page != 2 {
			t.Fatalf("page 2 = %q total %d page %d", got, p2.Total, p2.Page)
		}
		p3 := adminList(t, admin, adminQuery("page_size", "10", "page", "3"))
		if len(p3.Applications) != 0 || p3.Total != 12 || !bytes.Contains(admin.do("GET", "/api/admin/applications?page_size=10&page=3", nil).Body, []byte(`"applications":[]`)) {
			t.Fatalf("page 3 = %+v", p3)
		}
		// Ties stay put across pages: gender has big tie groups.
		all := f.order(adminList(t, admin, adminQuery("sort", "gender", "order", "asc", "page_size", "50")))
		split := f.order(adminList(t, admin, adminQuery("sort", "gender", "order", "asc", "page_size", "10"))) + " " +
			f.order(adminList(t, admin, adminQuery("sort", "gender", "order", "asc", "page_size", "10", "page", "2")))
		if all != split {
			t.Fatalf("pages of the gender sort %q differ from the whole %q", split, all)
		}
	})

	t.Run("Validation", func(t *testing.T) {
		cases := []struct {
			query, field string
		}{
			{"page_size=9", "page_size"},
			{"page_size=51", "page_size"},
			{"page=0", "page"},
			{"page=two", "page"},
			{"sort=id", "sort"},
			{"sort=name%3Bdrop+table+applications", "sort"},
			{"sort=NAME", "sort"},
			{"order=up", "order"},
			{"status=accepted", "status"},
			{"q=" + strings.Repeat("x", 101), "q"},
		}
		for _, c := range cases {
			var body errorJSON
			admin.expect(http.StatusBadRequest, "GET", "/api/admin/applications?"+c.query, nil).JSON(t, &body)
			if body.Error != "Validation failed" || body.Details[c.field] == "" {
				t.Fatalf("?%s: body %+v, want a reason for %s", c.query, body, c.field)
			}
		}
	})

	t.Run("Details", func(t *testing.T) {
		var d adminDetailsJSON
		admin.expect(http.StatusOK, "GET", "/api/admin/applications/"+f.ids["ada"].String(), nil).JSON(t, &d)
		if d.Application.ID != f.ids["ada"] || d.Application.Status != "submitted" ||
			d.Application.University == nil || *d.Application.University != "McGill University" {
			t.Fatalf("ada application %+v", d.Application)
		}
		team := d.Application.TeamMembersWithNames
		if len(team) != 2 || team[0].Email != "brian@example.com" || team[0].DisplayName == nil ||
			*team[0].DisplayName != "Brian Kernighan" || team[1].Email != "hedy@example.com" || team[1].DisplayName != nil {
			t.Fatalf("ada team %+v", team)
		}
		if d.Application.ResumeURL == nil {
			t.Fatal("ada has no resume link")
		}
		if got, _ := download(t, *d.Application.ResumeURL); !bytes.Equal(got, f.resumes["ada"]) {
			t.Fatal("the resume link does not serve ada's resume")
		}
		checkAdminReviews(t, f, d.Reviews, "admin2", "admin1")

		admin.expect(http.StatusOK, "GET", "/api/admin/applications/"+f.ids["dennis"].String(), nil).JSON(t, &d)
		if d.Application.Email == nil || *d.Application.Email != "ritchie@bell-labs.example" || len(d.Application.TeamMembersWithNames) != 0 {
			t.Fatalf("dennis application %+v", d.Application)
		}
		checkAdminReviews(t, f, d.Reviews, "admin3", "admin1", "admin2")

		// A bare draft: no resume, no team, no reviews (empty lists, not null).
		r := admin.expect(http.StatusOK, "GET", "/api/admin/applications/"+f.ids["ivan"].String(), nil)
		d = adminDetailsJSON{}
		r.JSON(t, &d)
		if d.Application.Status != "draft" || d.Application.ResumeURL != nil || len(d.Application.TeamMembersWithNames) != 0 ||
			!bytes.Contains(r.Body, []byte(`"reviews":[]`)) || !bytes.Contains(r.Body, []byte(`"team_members_with_names":[]`)) {
			t.Fatalf("ivan details %s", r.Body)
		}
	})

	t.Run("NotFound", func(t *testing.T) {
		for _, id := range []string{uuid.NewString(), "not-a-uuid", "12345"} {
			r := admin.expect(http.StatusNotFound, "GET", "/api/admin/applications/"+id, nil)
			if r.Map(t)["error"] != "Application not found" {
				t.Fatalf("%s: %s", id, r.Body)
			}
		}
	})
}

// checkAdminReviews asserts an application's reviews came from these admins,
// in this order, with their names and scores.
func checkAdminReviews(t *testing.T, f adminFixture, got []adminReviewJSON, admins ...string) {
	t.Helper()
	if len(got) != len(admins) {
		t.Fatalf("%d reviews, want %d: %+v", len(got), len(admins), got)
	}
	for i, admin := range admins {
		r, sc := got[i], adminScores[admin]
		if r.ReviewerID != f.adminIDs[admin] || r.ReviewerName == nil || *r.ReviewerName != adminNames[admin] ||
			r.ReviewerEmail != admin+"@example.com" ||
			r.ResumeScore != sc[0] || r.LinksScore != sc[1] || r.Q1Score != sc[2] || r.Q2Score != sc[3] {
			t.Fatalf("review %d = %+v, want one by %s with scores %v", i, r, admin, sc)
		}
		if i > 0 && r.ReviewedAt.Before(got[i-1].ReviewedAt) {
			t.Fatalf("reviews out of order: %+v", got)
		}
	}
}
