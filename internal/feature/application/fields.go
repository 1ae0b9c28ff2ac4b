package application

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"hackdesk/db"
	"hackdesk/internal/feature/hiring"
	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/mail"
	"hackdesk/internal/platform/patch"
)

// Field rules of the application form.

// MaxTeamMembers is how many teammates an application may list.
const MaxTeamMembers = 3

// MaxURL is the longest link an application holds, in characters.
const MaxURL = 300

// The patterns are written so that an ECMAScript RegExp with the u flag
// reads them as Go does (no \d, \s, \w or ., classes escaped for both):
// api/openapi.yaml carries each one as it is here, and a test in package
// api keeps the two equal.
var (
	TshirtSizes   = []string{"XS", "S", "M", "L", "XL", "XXL"}
	PhonePattern  = regexp.MustCompile(`^\+?[0-9 \(\)\.\-]{7,25}$`)
	DiscordHandle = regexp.MustCompile(`^[A-Za-z0-9_\.]{2,32}(#[0-9]{4})?$`)
	// WebURLPattern: http or https in any case, an authority without user
	// info that holds a dot, then anything after a '/', '?' or '#'.
	WebURLPattern = regexp.MustCompile(`^[Hh][Tt][Tt][Pp][Ss]?://[^\/\?#@]*\.[^\/\?#@]*([\/\?#][^\n]*)?$`)
)

// Patch is a partial update of a draft: absent fields stay, null clears.
type Patch struct {
	Email               patch.Field[string]     `json:"email"`
	Phone               patch.Field[string]     `json:"phone"`
	Discord             patch.Field[string]     `json:"discord"`
	TshirtSize          patch.Field[string]     `json:"tshirt_size"`
	DietaryRestrictions patch.Field[patch.List] `json:"dietary_restrictions"`
	Age                 patch.Field[int32]      `json:"age"`
	Country             patch.Field[string]     `json:"country"`
	Gender              patch.Field[patch.List] `json:"gender"`
	Ethnicity           patch.Field[patch.List] `json:"ethnicity"`
	University          patch.Field[string]     `json:"university"`
	Program             patch.Field[string]     `json:"program"`
	YearOfStudy         patch.Field[string]     `json:"year_of_study"`
	ExperienceLevel     patch.Field[patch.List] `json:"experience_level"`
	HackathonsAttended  patch.Field[int32]      `json:"hackathons_attended"`
	GithubURL           patch.Field[string]     `json:"github_url"`
	LinkedinURL         patch.Field[string]     `json:"linkedin_url"`
	WebsiteURL          patch.Field[string]     `json:"website_url"`
	Q1Answer            patch.Field[string]     `json:"q1_answer" text:"lines"`
	Q2Answer            patch.Field[string]     `json:"q2_answer" text:"lines"`
	TeamMembers         patch.Field[patch.List] `json:"team_members"`
	CocAgreed           patch.Field[bool]       `json:"coc_agreed"`
	InfoShareAuthorized patch.Field[bool]       `json:"info_share_authorized"`
	MarketingOptIn      patch.Field[bool]       `json:"marketing_opt_in"`
	PositionIDs         patch.Field[[]string]   `json:"position_ids"`
	// Answers to question-bank questions: {question_id: text}; a null or
	// blank text removes that answer. Checked against the questions by
	// Update.
	Answers patch.Field[map[string]*string] `json:"answers" text:"lines"`

	positionIDs []uuid.UUID // PositionIDs parsed by Validate
}

// TextRule checks one text field's value; "" means acceptable.
type TextRule func(string) string

// MaxChars accepts a text of at most n characters.
func MaxChars(n int) TextRule {
	return func(v string) string {
		if utf8.RuneCountInString(v) > n {
			return fmt.Sprintf("must be at most %d characters", n)
		}
		return ""
	}
}

// Pattern accepts a text that re matches.
func Pattern(re *regexp.Regexp, reason string) TextRule {
	return func(v string) string {
		if !re.MatchString(v) {
			return reason
		}
		return ""
	}
}

// OneOf accepts one of set.
func OneOf(set []string) TextRule {
	return func(v string) string {
		for _, s := range set {
			if v == s {
				return ""
			}
		}
		return "must be one of " + strings.Join(set, ", ")
	}
}

// WebURL accepts a link that matches WebURLPattern and parses as a URL.
func WebURL(v string) string {
	if !WebURLPattern.MatchString(v) {
		return "must be an http(s) URL"
	}
	if _, err := url.Parse(v); err != nil {
		return "must be an http(s) URL"
	}
	return ""
}

// Email accepts a bare email address.
func Email(v string) string {
	_, why := mail.NormalizeAddress(v)
	return why
}

// text validates a set, non-null text field against its rules.
func text[T ~string](f apperr.Fields, name string, fl patch.Field[T], rules ...TextRule) {
	if !fl.Set || fl.Null {
		return
	}
	v := strings.TrimSpace(string(fl.V))
	if v == "" {
		return // empty clears, like null
	}
	for _, rule := range rules {
		if why := rule(v); why != "" {
			f.Add(name, why)
			return
		}
	}
}

func intRange(f apperr.Fields, name string, fl patch.Field[int32], lo, hi int32) {
	if fl.Set && !fl.Null && (fl.V < lo || fl.V > hi) {
		f.Add(name, fmt.Sprintf("must be from %d to %d", lo, hi))
	}
}

// Validate checks each field present in the patch; the questions of
// Answers and the accounts of TeamMembers are checked by Update.
func (p *Patch) Validate() apperr.Fields {
	f := apperr.Fields{}
	text(f, "email", p.Email, Email)
	text(f, "phone", p.Phone, Pattern(PhonePattern, "must be a phone number"))
	text(f, "discord", p.Discord, Pattern(DiscordHandle, "must be a Discord username"))
	text(f, "tshirt_size", p.TshirtSize, OneOf(TshirtSizes))
	text(f, "dietary_restrictions", p.DietaryRestrictions, MaxChars(300))
	intRange(f, "age", p.Age, 13, 100)
	text(f, "country", p.Country, MaxChars(100))
	text(f, "gender", p.Gender, MaxChars(300))
	text(f, "ethnicity", p.Ethnicity, MaxChars(300))
	text(f, "university", p.University, MaxChars(200))
	text(f, "program", p.Program, MaxChars(200))
	text(f, "year_of_study", p.YearOfStudy, MaxChars(50))
	text(f, "experience_level", p.ExperienceLevel, MaxChars(300))
	intRange(f, "hackathons_attended", p.HackathonsAttended, 0, 1000)
	text(f, "github_url", p.GithubURL, WebURL, MaxChars(MaxURL))
	text(f, "linkedin_url", p.LinkedinURL, WebURL, MaxChars(MaxURL))
	text(f, "website_url", p.WebsiteURL, WebURL, MaxChars(MaxURL))
	text(f, "q1_answer", p.Q1Answer, MaxChars(5000))
	text(f, "q2_answer", p.Q2Answer, MaxChars(1000))
	if p.TeamMembers.Set && !p.TeamMembers.Null && p.TeamMembers.V != "" {
		members := strings.Split(string(p.TeamMembers.V), ",")
		seen := map[string]bool{}
		switch {
		case len(members) > MaxTeamMembers:
			f.Add("team_members", fmt.Sprintf("at most %d team members", MaxTeamMembers))
		default:
			for _, m := range members {
				if why := Email(m); why != "" {
					f.Add("team_members", m+" "+why)
				}
				if seen[strings.ToLower(m)] {
					f.Add("team_members", m+" is listed twice")
				}
				seen[strings.ToLower(m)] = true
			}
		}
	}
	if p.PositionIDs.Set && !p.PositionIDs.Null {
		ids, why := hiring.ParsePositionIDs(p.PositionIDs.V, hiring.MaxPositions)
		if why != "" {
			f.Add("position_ids", why)
		}
		p.positionIDs = ids
	}
	if p.Answers.Set && p.Answers.Null {
		f.Add("answers", "must be an object of question ids to answers")
	}
	return f
}

// setText applies a text patch: null or blank clears, otherwise trimmed.
func setText[T ~string](dst **string, fl patch.Field[T]) {
	if !fl.Set {
		return
	}
	v := strings.TrimSpace(string(fl.V))
	if fl.Null || v == "" {
		*dst = nil
		return
	}
	*dst = &v
}

func setInt(dst **int32, fl patch.Field[int32]) {
	if !fl.Set {
		return
	}
	if fl.Null {
		*dst = nil
		return
	}
	v := fl.V
	*dst = &v
}

func setBool(dst *bool, fl patch.Field[bool]) {
	if fl.Set {
		*dst = !fl.Null && fl.V
	}
}

// Apply writes the patch's form fields onto the stored row (positions and
// answers are written by Update).
func (p *Patch) Apply(a *db.Application) {
	setText(&a.Email, p.Email)
	setText(&a.Phone, p.Phone)
	setText(&a.Discord, p.Discord)
	setText(&a.TshirtSize, p.TshirtSize)
	setText(&a.DietaryRestrictions, p.DietaryRestrictions)
	setInt(&a.Age, p.Age)
	setText(&a.Country, p.Country)
	setText(&a.Gender, p.Gender)
	setText(&a.Ethnicity, p.Ethnicity)
	setText(&a.University, p.University)
	setText(&a.Program, p.Program)
	setText(&a.YearOfStudy, p.YearOfStudy)
	setText(&a.ExperienceLevel, p.ExperienceLevel)
	setInt(&a.HackathonsAttended, p.HackathonsAttended)
	setText(&a.GithubUrl, p.GithubURL)
	setText(&a.LinkedinUrl, p.LinkedinURL)
	setText(&a.WebsiteUrl, p.WebsiteURL)
	setText(&a.Q1Answer, p.Q1Answer)
	setText(&a.Q2Answer, p.Q2Answer)
	if p.TeamMembers.Set {
		a.TeamMembers = string(p.TeamMembers.V)
		if p.TeamMembers.Null {
			a.TeamMembers = ""
		}
	}
	setBool(&a.CocAgreed, p.CocAgreed)
	setBool(&a.InfoShareAuthorized, p.InfoShareAuthorized)
	setBool(&a.MarketingOptIn, p.MarketingOptIn)
}

// TeamSearched reports whether the patch names team members, which are
// looked up as accounts (the caller's team-search limit counts it).
func (p *Patch) TeamSearched() bool {
	return p.TeamMembers.Set && !p.TeamMembers.Null && p.TeamMembers.V != ""
}
