// Package account holds accounts and people: sign-up and the email
// confirmation, sign-in and the lifetimes of sessions, the password reset,
// the profile, the team-member search, and the administration of roles
// (`hackdesk users create|grant` and the superadmins' users page).
// Password hashing is package auth's; the API's handlers decode, call a
// function here and encode.
package account

import (
	"slices"
	"strings"
)

// Roles a profile holds (profiles.role).
const (
	RoleMember     = "member"
	RoleAdmin      = "admin"
	RoleSuperadmin = "superadmin"
)

// Roles lists every role, least privileged first.
var Roles = []string{RoleMember, RoleAdmin, RoleSuperadmin}

// Privileged reports whether role administers the service (admin or
// superadmin), which also shortens its sessions.
func Privileged(role string) bool { return role == RoleAdmin || role == RoleSuperadmin }

func oneOf(v string, set []string) bool { return slices.Contains(set, v) }

// baseURL is PUBLIC_URL without a trailing slash, for the mailed links.
func baseURL(publicURL string) string { return strings.TrimRight(publicURL, "/") }
