package cli_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ckpt-markov/markov/internal/cli"
)

// TestMalformedScenario checks that each kind of broken scenario file gives
// a one-line error naming the field and the problem, exit status 1 and no
// usage text, from every command that reads a scenario.
func TestMalformedScenario(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    []string // substrings of the error line
	}{
		{
			name:    "missing field",
			content: `{"system": {"processors": 2, "mttf": "2d"}, "application": {"work_rate": [1, 2], "checkpoint_latency": 60, "recovery": 30}, "policy": "greedy"}`,
			want:    []string{"system.mttr", "missing"},
		},
		{
			name:    "wrong length",
			content: `{"system": {"processors": 3, "mttf": "2d", "mttr": "1h"}, "application": {"work_rate": [1, 2], "checkpoint_latency": 60, "recovery": 30}, "policy": "greedy"}`,
			want:    []string{"application.work_rate", "2 entries, want 3"},
		},
		{
			name:    "C > L",
			content: `{"system": {"processors": 4, "mttf": "2d", "mttr": "1h"}, "application": {"work_rate": [1, 2, 3, 4], "checkpoint_latency": 60, "checkpoint_overhead": [60, 60, 60, 95], "recovery": 30}, "policy": "greedy"}`,
			want:    []string{"application.checkpoint_overhead[3]", "C(4) = 95", "L(4) = 60"},
		},
		{
			name:    "r(n) > n",
			content: `{"system": {"processors": 3, "mttf": "2d", "mttr": "1h"}, "application": {"work_rate": [1, 2, 3], "checkpoint_latency": 60, "recovery": 30}, "policy": {"vector": [1, 3, 3]}}`,
			want:    []string{"policy", "r(2) = 3"},
		},
		{
			name:    "unknown field",
			content: `{"system": {"processors": 2, "mttf": "2d", "mttr": "1h", "spares": 1}, "application": {"work_rate": [1, 2], "checkpoint_latency": 60, "recovery": 30}, "policy": "greedy"}`,
			want:    []string{"system.spares", "unknown field"},
		},
		{
			name:    "not JSON",
			content: "system: {processors: 2}\n",
			want:    []string{"not valid JSON"},
		},
		{
			name:    "unknown benchmark",
			content: `{"system": {"processors": 2, "mttf": "2d", "mttr": "1h"}, "application": "lu", "policy": "greedy"}`,
			want:    []string{"application", `"lu"`},
		},
	}
	commands := [][]string{
		{"uwt", "--interval", "1h"},
		{"optimize"},
		{"curve"},
		{"availability"},
		{"simulate"},
		{"policy"},
		{"intervals"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "bad.json", tc.content)
			for _, c := range commands {
				args := append(append([]string{}, c...), "--scenario", path)
				out, errOut, code := run(t, args...)
				if code != 1 {
					t.Errorf("%v: exit %d, want 1", args, code)
				}
				if out != "" {
					t.Errorf("%v: printed %q on stdout", args, out)
				}
				if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "markov: scenario: ") {
					t.Errorf("%v: stderr %q, want one line starting \"markov: scenario: \"", args, errOut)
				}
				for _, w := range tc.want {
					if !strings.Contains(errOut, w) {
						t.Errorf("%v: error %q lacks %q", args, errOut, w)
					}
				}
			}
		})
	}

	_, errOut, code := run(t, "optimize", "--scenario", filepath.Join(t.TempDir(), "absent.json"))
	if code != 1 || !strings.Contains(errOut, "absent.json") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("absent file: exit %d, %q", code, errOut)
	}
}

// TestUsageErrors checks that mistakes on the command line give exit
// status 2, an error naming the flag, and a pointer to --help, never the
// whole usage text.
func TestUsageErrors(t *testing.T) {
	four := writeFile(t, "four.json", fourScenario)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"uwt"}, "--interval: required"},
		{[]string{"uwt", "--interval", "soon"}, "--interval"},
		{[]string{"uwt", "--interval", "-1h"}, "--interval"},
		{[]string{"uwt", "--interval", "0"}, "--interval"},
		{[]string{"optimize", "--policy", "lazy"}, "--policy"},
		{[]string{"optimize", "--policy", "moldable:x"}, "--policy"},
		{[]string{"optimize", "--app", "lu"}, "--app"},
		{[]string{"optimize", "--mttf", "never"}, "--mttf"},
		{[]string{"optimize", "--mttr", "0s"}, "--mttr"},
		{[]string{"optimize", "--processors", "0"}, "--processors"},
		{[]string{"optimize", "--processors", "513"}, "--processors"},
		{[]string{"optimize", "--app", "qr", "--processors", "513"}, "--app"},
		{[]string{"optimize", "--scenario", four, "--processors", "8"}, "--processors"},
		{[]string{"optimize", "--rel-tol", "2"}, "--rel-tol"},
		{[]string{"optimize", "--band", "0"}, "--band"},
		{[]string{"optimize", "--json", "--csv"}, "json"},
		{[]string{"optimize", "--frobnicate"}, "--frobnicate"},
		{[]string{"optimize", "extra"}, "extra"},
		{[]string{"simulate", "--replications", "1"}, "--replications"},
		{[]string{"simulate", "--confidence", "1"}, "--confidence"},
		// The study's simulation.horizon has the same bound (issue 23).
		{[]string{"simulate", "--horizon", "2000y"}, "above the limit of 3.15576e+10 s"},
		{[]string{"curve", "--points", "1"}, "--points"},
		{[]string{"curve", "--unit", "fortnight"}, "--unit"},
		{[]string{"curve", "--from", "2h", "--to", "1h", "--optimum=false"}, "--from"},
		{[]string{"frobnicate"}, "frobnicate"},
	}
	for _, tc := range tests {
		out, errOut, code := run(t, tc.args...)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if code != 2 || out != "" || len(lines) != 2 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and two lines", tc.args, code, out, errOut)
			continue
		}
		if !strings.HasPrefix(lines[0], "markov: ") || !strings.Contains(lines[0], tc.want) {
			t.Errorf("%v: error %q, want it to name %q", tc.args, lines[0], tc.want)
		}
		if !strings.Contains(lines[1], "--help") {
			t.Errorf("%v: second line %q, want a pointer to --help", tc.args, lines[1])
		}
	}
}

// TestHelp checks that the root command and every subcommand explain
// themselves with a description and examples.
func TestHelp(t *testing.T) {
	root := mustRun(t, "--help")
	subcommands := []string{"uwt", "optimize", "curve", "availability", "simulate", "policy", "intervals"}
	for _, c := range subcommands {
		if !strings.Contains(root, "  "+c+" ") {
			t.Errorf("root help does not list %q:\n%s", c, root)
		}
	}
	if !strings.Contains(root, "Examples:") || !strings.Contains(root, "104.61 days") {
		t.Errorf("root help lacks examples or the built-in scenario:\n%s", root)
	}
	for _, c := range subcommands {
		help := mustRun(t, c, "--help")
		for _, want := range []string{"Usage:", "Examples:", "markov " + c, "--scenario", "--json", "--csv"} {
			if !strings.Contains(help, want) {
				t.Errorf("markov %s --help lacks %q", c, want)
			}
		}
	}
	if noArgs := mustRun(t); !strings.Contains(noArgs, "Available Commands:") {
		t.Errorf("markov with no arguments:\n%s", noArgs)
	}
}

// TestInterrupted checks that a cancelled context stops a command with
// exit status 130 and a one-line message.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{{"optimize"}, {"simulate", "--interval", "1h"}, {"curve"}} {
		var out, errOut bytes.Buffer
		code := cli.RunContext(ctx, args, &out, &errOut)
		if code != cli.ExitInterrupted || errOut.String() != "markov: interrupted\n" {
			t.Errorf("%v with a cancelled context: exit %d, stderr %q", args, code, errOut.String())
		}
	}
	// Cancelled while it runs, a simulation whose stage holds about 10¹³
	// events (a thousand years on 128 processors failing every 10 s)
	// stops too: before issue 23's fix it looked at the context only 64
	// times a stage and ignored SIGINT and SIGTERM.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	var errOut bytes.Buffer
	go func() {
		done <- cli.RunContext(ctx, []string{"simulate", "--interval", "1h", "--mttf", "1000s", "--horizon", "1000y", "--rel-tol", "-1", "--replications", "2"}, &bytes.Buffer{}, &errOut)
	}()
	time.Sleep(200 * time.Millisecond)
	cancel()
	select {
	case code := <-done:
		if code != cli.ExitInterrupted {
			t.Errorf("simulate cancelled mid-run: exit %d, stderr %q", code, errOut.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("simulate did not stop a minute after its context was cancelled")
	}
}
