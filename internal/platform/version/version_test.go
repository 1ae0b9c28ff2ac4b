package version

import (
	"runtime/debug"
	"testing"
)

func TestBuildID(t *testing.T) {
	for _, c := range []struct {
		name     string
		settings []debug.BuildSetting
		want     string
	}{
		{"OKClean", []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}}, "0123456789ab"},
		{"OKModified", []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}, "0123456789ab-dirty"},
		{"OKNoVCS", nil, Dev},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := fromSettings(c.settings); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	Revision = "abc123-dirty-0f0f0f0f"
	defer func() { Revision = "" }()
	if got := BuildID(); got != Revision {
		t.Errorf("with Revision set, BuildID = %q", got)
	}
}
