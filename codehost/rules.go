package codehost

import (
	"regexp"
	"slices"
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
