// Package version is the build's identity: the revision the binary was
// built from, which is also its Worker Deployment build id (Temporal's
// Worker Versioning routes each pinned workflow to the build that started
// it).
package version

import (
	"runtime/debug"
	"strings"
)

// Revision is set when the binary is linked: `make build` passes
// -ldflags "-X hackdesk/internal/platform/version.Revision=<rev>", the
// commit's short hash, with "-dirty-<hash of the diff>" for a tree with
// uncommitted changes. Empty in a plain `go build` or `go test`.
var Revision string

// Dev is the build id of a binary that knows no revision (a plain go
// build with VCS stamping off, a test binary).
const Dev = "dev"

// BuildID is the binary's build id: Revision when it was set at link time;
// else the VCS revision Go stamped into the binary (12 characters, with
// "-dirty" for a modified tree); else Dev.
func BuildID() string {
	if Revision != "" {
		return Revision
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		return fromSettings(bi.Settings)
	}
	return Dev
}

func fromSettings(settings []debug.BuildSetting) string {
	var rev string
	modified := false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return Dev
	}
	rev = strings.TrimSpace(rev)
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += "-dirty"
	}
	return rev
}
