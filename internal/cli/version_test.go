package cli

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionOf checks that the revision is printed once, whether or not the
// module version already carries it, and never Go's placeholder "(devel)"
// (issue 24: the old code printed "(devel)" for a checkout).
func TestVersionOf(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for k := 0; k < len(kv); k += 2 {
			out = append(out, debug.BuildSetting{Key: kv[k], Value: kv[k+1]})
		}
		return out
	}
	const rev = "a2e7a4b0123456789abcdef0123456789abcdef0"
	for _, tc := range []struct {
		name    string
		version string
		set     []debug.BuildSetting
		want    string
	}{
		{"no VCS", "", nil, "unknown (built without module or version-control information)"},
		{"no VCS, devel", "(devel)", nil, "unknown (built without module or version-control information)"},
		{"checkout", "(devel)", settings("vcs.revision", rev, "vcs.time", "2026-11-25T21:00:00Z", "vcs.modified", "false"),
			"commit a2e7a4b01234 (2026-11-25T21:00:00Z)"},
		{"pseudo-version", "v0.0.0-20261125210000-a2e7a4b01234", settings("vcs.revision", rev, "vcs.time", "2026-11-25T21:00:00Z"),
			"v0.0.0-20261125210000-a2e7a4b01234"},
		{"release with VCS", "v1.2.0", settings("vcs.revision", rev, "vcs.time", "2026-11-25T21:00:00Z"),
			"v1.2.0 (a2e7a4b01234, 2026-11-25T21:00:00Z)"},
		{"dirty pseudo-version", "v0.0.0-20261125210000-a2e7a4b01234+dirty", settings("vcs.revision", rev, "vcs.modified", "true"),
			"v0.0.0-20261125210000-a2e7a4b01234+dirty"},
		{"modified checkout", "(devel)", settings("vcs.revision", rev, "vcs.modified", "true"), "commit a2e7a4b01234 (modified)"},
		{"release", "v1.2.0", nil, "v1.2.0"},
	} {
		info := &debug.BuildInfo{Main: debug.Module{Version: tc.version}, Settings: tc.set}
		got := versionOf(info)
		if got != tc.want {
			t.Errorf("%s: versionOf = %q, want %q", tc.name, got, tc.want)
		}
		if strings.Contains(got, "(devel)") || strings.Count(got, "a2e7a4b01234") > 1 {
			t.Errorf("%s: %q prints (devel) or the revision twice", tc.name, got)
		}
	}
}
