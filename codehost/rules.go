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

// ValidProjectType reports whether t is one of ProjectTypes.
func ValidProjectType(t string) bool { return slices.Contains(ProjectTypes, t) }

// ValidDatabase reports whether d is one of Databases.
func ValidDatabase(d string) bool { return slices.Contains(Databases, d) }
