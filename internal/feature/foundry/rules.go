package foundry

import (
	"regexp"
	"slices"
	"strings"

	"hackdesk/internal/platform/apperr"
	"hackdesk/internal/platform/codehost"
)

// ProjectTypes are the kinds of project Foundry makes, one template each.
var ProjectTypes = []string{"nextjs", "express", "fastapi"}

// Databases are the databases a project can be set up with.
var Databases = []string{"postgresql", "mongodb"}

// MaxDescription caps a repository description.
const MaxDescription = 350

var repoName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)

// CheckRepoName returns why name cannot be a repository name, or "": one
// to 100 letters, digits, '.', '_' or '-', and neither "." nor "..".
func CheckRepoName(name string) string {
	switch {
	case name == "":
		return "is required"
	case name == "." || name == "..":
		return `must not be "." or ".."`
	case !repoName.MatchString(name):
		return "must be 1 to 100 letters, digits, '.', '_' or '-'"
	}
	return ""
}

var teamSlug = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// CheckTeamSlug returns why slug cannot name a team of the organization,
// or "": 1 to 100 of lower-case letters, digits, '_' and '-', starting with
// a letter or digit (what GitHub makes of a team's name). The slug goes
// into the code host's URL path with the organization's token, so nothing
// that could reach another path ('/', '.', '%', '?', '#') gets through.
func CheckTeamSlug(slug string) string {
	switch {
	case slug == "":
		return "is required"
	case len(slug) > 100 || !teamSlug.MatchString(slug):
		return "must be 1 to 100 lower-case letters, digits, '_' or '-', starting with a letter or digit"
	}
	return ""
}

// ValidProjectType reports whether t is one of ProjectTypes.
func ValidProjectType(t string) bool { return slices.Contains(ProjectTypes, t) }

// ValidDatabase reports whether d is one of Databases.
func ValidDatabase(d string) bool { return slices.Contains(Databases, d) }

// LaunchRequest is a project to launch, as the launch route takes it. The
// extras (Redis, S3) are off and the repository private unless asked
// otherwise.
type LaunchRequest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	ProjectType string `json:"project_type"`
	Database    string `json:"database"`
	Redis       *bool  `json:"redis"`
	S3          *bool  `json:"s3"`
	TeamSlug    string `json:"team_slug"`
	Private     *bool  `json:"private"`
}

// Validate returns the reason for each field that breaks the rules.
func (r *LaunchRequest) Validate() apperr.Fields {
	f := apperr.Fields{}
	if why := CheckRepoName(r.Name); why != "" {
		f.Add("name", why)
	}
	if len([]rune(r.Description)) > MaxDescription {
		f.Add("description", "must be at most 350 characters")
	}
	if !ValidProjectType(r.ProjectType) {
		f.Add("project_type", "must be one of "+strings.Join(ProjectTypes, ", "))
	}
	if !ValidDatabase(r.Database) {
		f.Add("database", "must be one of "+strings.Join(Databases, ", "))
	}
	if why := CheckTeamSlug(r.TeamSlug); why != "" {
		f.Add("team_slug", why)
	}
	return f
}

// IsPrivate reports whether the repository is to be private: unless asked
// otherwise.
func (r *LaunchRequest) IsPrivate() bool { return r.Private == nil || *r.Private }

// CheckTeam is the 400 for a team slug that is none of the organization's
// teams (as the code host lists them), or nil.
func CheckTeam(teams []codehost.Team, slug string) error {
	if slices.ContainsFunc(teams, func(t codehost.Team) bool { return t.Slug == slug }) {
		return nil
	}
	return apperr.ValidationFailed(apperr.Fields{"team_slug": "no team " + slug + " in the organization (GET /api/codehost/teams lists them)"})
}

func orFalse(b *bool) bool { return b != nil && *b }
