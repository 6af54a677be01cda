package cli_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/cli"
)

// run executes a command line as a user would and returns its output and
// exit status.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = cli.Run(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// mustRun executes a command line that must succeed, without writing
// anything on stderr but progress lines (stderr is no terminal here, so
// there is no progress bar; progressLine).
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, args...)
	if code != 0 || withoutProgress(errOut) != "" {
		t.Fatalf("markov %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut)
	}
	return out
}

// progressLine matches a progress line of a long command off a terminal,
// as "evaluate: 3 of 60 segments done".
var progressLine = regexp.MustCompile(`(?m)^[a-z]+: [0-9]+ of [0-9]+ [a-z]+ done\n`)

// withoutProgress returns stderr without its progress lines.
func withoutProgress(stderr string) string { return progressLine.ReplaceAllString(stderr, "") }

// runJSON executes a command line with --json and decodes its output into
// v. It returns the raw output, for requireKeys.
func runJSON(t *testing.T, v any, args ...string) string {
	t.Helper()
	out := mustRun(t, append(args, "--json")...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("markov %s --json: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// jsonKeys returns the top-level keys of a JSON object.
func jsonKeys(t *testing.T, out string) map[string]bool {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output is not a JSON object: %v\n%s", err, out)
	}
	keys := make(map[string]bool, len(m))
	for k := range m {
		keys[k] = true
	}
	return keys
}

// requireKeys fails unless the JSON object out has every key.
func requireKeys(t *testing.T, out string, keys ...string) {
	t.Helper()
	have := jsonKeys(t, out)
	for _, k := range keys {
		if !have[k] {
			t.Errorf("JSON output lacks %q:\n%s", k, out)
		}
	}
}

// writeFile writes content to name in a fresh temporary directory and
// returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The one-processor scenario of the model specification (docs/model.md, section
// 7): λ = 1/3600, θ = 1/600, L = C = 60.6, R = 30, for which the availability
// has a closed form (oneAvailability). The work rate 2.5 makes UWT = 2.5·A distinguishable
// from A.
const (
	oneMTTF     = 3600.0
	oneMTTR     = 600.0
	oneLatency  = 60.6
	oneRecovery = 30.0
	oneRate     = 2.5
)

const oneScenario = `{
  "system": {"processors": 1, "mttf": 3600, "mttr": "10m"},
  "application": {"work_rate": [2.5], "checkpoint_latency": 60.6, "recovery": 30},
  "policy": "greedy"
}`

// oneAvailability is the availability of the one-processor model (N = a =
// 1, C = L), derived by renewal–reward over the processor's up/down cycles:
// a cycle lasts 1/λ + 1/θ on average; in its up period X ~ Exp(λ) the
// application first recovers (R + L seconds; none before the first
// failure, which does not matter in the long run) and then completes
// segments of T = I + L seconds, each committing I, so the expected
// committed time per cycle is I·Σ_{k≥1} e^{−λ(R+L)}e^{−λkT}. Hence
//
//	A(I) = λθ/(λ+θ) · I · e^{−λ(I + 2L + R)} / (1 − e^{−λ(I+L)}).
//
// docs/model.md, section 7, prints this formula without the factor λ (which
// makes it dimensionally a time); its worked example, A = 0.69164 at I =
// 600 s, agrees with the formula above.
func oneAvailability(mttf, interval float64) float64 {
	lambda, theta := 1/mttf, 1/oneMTTR
	l, r := oneLatency, oneRecovery
	return lambda * theta / (lambda + theta) * interval * math.Exp(-lambda*(interval+2*l+r)) /
		-math.Expm1(-lambda*(interval+l))
}

// oneOptimum maximises oneAvailability over I by golden-section search on
// log I (A is unimodal in I: it rises from 0 and falls to 0), to a relative
// precision of about 1e-10 in I.
func oneOptimum(mttf float64) (interval, avail float64) {
	f := func(x float64) float64 { return oneAvailability(mttf, math.Exp(x)) }
	lo, hi := math.Log(1.0), math.Log(1e6)
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := f(a), f(b)
	for hi-lo > 1e-10 {
		if fa > fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = f(b)
		}
	}
	x := (lo + hi) / 2
	return math.Exp(x), f(x)
}

// A four-processor scenario for fast structural tests.
const fourScenario = `{
  "system": {"processors": 4, "mttf": "2d", "mttr": "1h"},
  "application": {
    "work_rate": [1, 1.9, 2.7, 3.4],
    "checkpoint_latency": 60,
    "recovery": 30
  },
  "policy": "greedy"
}`

// fourRates are the work rates of fourScenario.
var fourRates = []float64{1, 1.9, 2.7, 3.4}

// relErr returns |got − want|/|want|.
func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Abs(want) }
