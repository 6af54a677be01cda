package main

import (
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinary builds the command and runs it as a shell would, checking that
// the exit status and the streams reach the process.
func TestBinary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool in PATH to build the binary")
	}
	bin := filepath.Join(t.TempDir(), "markov")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	out, err := exec.Command(bin, "optimize", "--processors", "8", "--json").Output()
	if err != nil {
		t.Fatalf("markov optimize: %v", err)
	}
	var got struct {
		Interval float64 `json:"interval"`
		UWT      float64 `json:"uwt"`
	}
	if err := json.Unmarshal(out, &got); err != nil || !(got.Interval > 0 && got.UWT > 0) {
		t.Errorf("markov optimize --json: %v, %+v", err, got)
	}

	cmd := exec.Command(bin, "uwt")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.HasPrefix(stderr.String(), "markov: --interval") {
		t.Errorf("markov uwt without --interval: %v, stderr %q; want exit status 2", err, stderr.String())
	}
}
