package cli

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// The built-in scenario: the QR benchmark (package bench) on 128 processors
// of LANL system-1 with the greedy policy.
//
// The failure and repair times are the per-processor averages the paper
// ("Determination of Checkpointing Intervals for Malleable Applications",
// section VI-D, Table II, row "128, system-1") estimated from the LANL
// failure logs: λ = 1/(104.61 days), θ = 1/(56.03 min). They are the rates of
// the very configuration (QR, 128 processors of system-1, greedy) for which the
// paper reports an average I_model of 17.78 hours and a UWT of 10.46 (Tables II
// and III), and an MTTF of about a hundred days with a repair time near an
// hour is typical of the LANL production systems (system-2's 256- and
// 512-processor rows give 68–82 days and 2–3 hours).
const (
	defaultApp        = "qr"
	defaultProcessors = 128
	defaultMTTF       = "104.61d"
	defaultMTTR       = "56.03m"
)

// scenarioOptions are the flags that choose the scenario: a file and the
// parts that override it.
type scenarioOptions struct {
	File       string
	Processors int
	MTTF       string
	MTTR       string
	App        string
	Policy     string
	// Reconfigure is "never" or "at-checkpoint" (empty: the file's, or
	// never).
	Reconfigure string

	// processorsSet is whether --processors was given.
	processorsSet bool
	// optimal is whether the command accepts --policy optimal: the
	// scenario then carries the greedy vector until the solver replaces it.
	optimal bool
}

func (o *scenarioOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&o.File, "scenario", "s", "", "scenario `FILE` (JSON); default: the built-in scenario")
	f.IntVarP(&o.Processors, "processors", "n", 0, "override the number of processors `N`")
	f.StringVar(&o.MTTF, "mttf", "", "override the per-processor mean time to failure (`DURATION`, e.g. 100d)")
	f.StringVar(&o.MTTR, "mttr", "", "override the per-processor mean time to repair (`DURATION`, e.g. 1h)")
	f.StringVar(&o.App, "app", "", "use the benchmark application `NAME`: "+strings.Join(bench.Names(), ", "))
	f.StringVar(&o.Policy, "policy", "", "override the rescheduling `POLICY`: greedy, pb, moldable:A, vector:r1,...,rN, or optimal (optimize, uwt, policy: computed by package optimal)")
	f.StringVar(&o.Reconfigure, "reconfigure", "", "override when a running application changes its processor count: never (the paper's model) or at-checkpoint (onto r(n) at every checkpoint; docs/optimal-policy.md section 1)")
}

// scenarioInfo is the scenario a command used, with a description for
// people.
type scenarioInfo struct {
	sc *scenario.Scenario
	// app names the benchmark application, or is empty for one from a file.
	app string
	// file is the scenario file, if any.
	file string
	// optimal is whether the policy is the optimal one (the scenario
	// carries the greedy vector as a placeholder).
	optimal bool
}

// describe returns a one-line description of the scenario.
func (s scenarioInfo) describe() string {
	sys := s.sc.System
	out := fmt.Sprintf("%s on %d processors, MTTF %s, MTTR %s, policy %s",
		s.application(), sys.Processors, scenario.FormatDuration(sys.MTTF), scenario.FormatDuration(sys.MTTR), s.shortPolicy())
	if s.sc.Reconfigure != scenario.Never {
		out += ", reconfigure " + s.sc.Reconfigure.String()
	}
	return out
}

// scenarioJSON is the scenario summary every --json output carries.
type scenarioJSON struct {
	Application string    `json:"application"`
	Processors  int       `json:"processors"`
	MTTF        jsonFloat `json:"mttf"`
	MTTR        jsonFloat `json:"mttr"`
	Policy      string    `json:"policy"`
	// Reconfigure is "at-checkpoint", or absent for the paper's model.
	Reconfigure string `json:"reconfigure,omitempty"`
}

func (s scenarioInfo) json() scenarioJSON {
	return scenarioJSON{
		Application: s.application(),
		Processors:  s.sc.System.Processors,
		MTTF:        jsonFloat(s.sc.System.MTTF),
		MTTR:        jsonFloat(s.sc.System.MTTR),
		Policy:      s.policy(),
		Reconfigure: reconfigureJSON(s.sc.Reconfigure),
	}
}

// reconfigureJSON names the option for JSON, empty for the paper's model.
func reconfigureJSON(r scenario.Reconfigure) string {
	if r == scenario.Never {
		return ""
	}
	return r.String()
}

// application names the application: the benchmark's name, or the
// scenario file's name.
func (s scenarioInfo) application() string {
	if s.app != "" {
		return s.app
	}
	return filepath.Base(s.file)
}

// maxPolicyText is the longest policy describe prints in full; a longer
// vector is shown as its runs (runs), cut to this length.
const maxPolicyText = 48

// shortPolicy is the policy for a one-line description: a long vector as
// its runs ("vector 1-200: n, 201-512: 200"), cut with its length, where
// the JSON keeps the whole vector.
func (s scenarioInfo) shortPolicy() string {
	p := s.policy()
	if len(p) <= maxPolicyText || s.sc.Policy.Kind != scenario.Explicit {
		return p
	}
	r := "vector " + runs(s.sc.Reschedule)
	if len(r) > maxPolicyText {
		cut := strings.LastIndex(r[:maxPolicyText], ", ")
		if cut < 0 {
			cut = maxPolicyText
		}
		r = fmt.Sprintf("%s, … (%d entries)", r[:cut], len(s.sc.Policy.Explicit))
	}
	return r
}

// policy names the scenario's policy.
func (s scenarioInfo) policy() string {
	if s.optimal {
		return scenario.Policy{Kind: scenario.Optimal}.String()
	}
	return s.sc.Policy.String()
}

// load reads the scenario file (or takes the built-in scenario) and applies
// the overriding flags.
func (o *scenarioOptions) load(cmd *cobra.Command) (scenarioInfo, error) {
	o.processorsSet = cmd.Flags().Changed("processors")
	var (
		sys       scenario.System
		app       scenario.Application
		pol       scenario.Policy
		appName   = o.App
		isOptimal bool
		rc        scenario.Reconfigure
		pattern   []int // checkpoint_pattern
	)
	if o.File != "" {
		sc, err := scenario.Load(o.File, &scenario.ParseSettings{Applications: bench.Application})
		if err != nil {
			return scenarioInfo{}, err
		}
		sys, app, pol, rc = sc.System, sc.Application, sc.Policy, sc.Reconfigure
		pattern = sc.CheckpointPattern
	} else {
		sys.Processors = defaultProcessors
		var err error
		if sys.MTTF, err = scenario.ParseDuration(defaultMTTF); err != nil {
			return scenarioInfo{}, err
		}
		if sys.MTTR, err = scenario.ParseDuration(defaultMTTR); err != nil {
			return scenarioInfo{}, err
		}
		if appName == "" {
			appName = defaultApp
		}
		pol = scenario.Policy{Kind: scenario.Greedy}
	}

	if o.processorsSet {
		if o.Processors < 1 {
			return scenarioInfo{}, flagError("processors", "%d, want at least 1", o.Processors)
		}
		sys.Processors = o.Processors
	}
	for _, d := range []struct {
		flag, value string
		dst         *float64
	}{{"mttf", o.MTTF, &sys.MTTF}, {"mttr", o.MTTR, &sys.MTTR}} {
		if d.value == "" {
			continue
		}
		v, err := positiveDuration(d.flag, d.value)
		if err != nil {
			return scenarioInfo{}, err
		}
		*d.dst = v
	}

	n := sys.Processors
	if appName != "" {
		a, err := bench.Application(appName, n)
		if err != nil {
			if o.App == "" {
				// The built-in application: the processor count is at fault.
				return scenarioInfo{}, flagError("processors", "%d: %v", n, err)
			}
			return scenarioInfo{}, flagError("app", "%v", err)
		}
		app = a
	} else if app.N() != n {
		a, err := firstCounts(app, n)
		if err != nil {
			return scenarioInfo{}, err
		}
		app = a
	}

	if o.Policy != "" {
		p, err := scenario.ParsePolicy(o.Policy)
		if err != nil {
			return scenarioInfo{}, flagError("policy", "%s", problem(err))
		}
		switch p.Kind {
		case scenario.AvailabilityBased:
			return scenarioInfo{}, flagError("policy", "%s needs a failure history; use it on a trace: markov evaluate --policies ab", o.Policy)
		case scenario.Optimal:
			if !o.optimal {
				return scenarioInfo{}, flagError("policy", "%s: the optimal policy is not available in this command", o.Policy)
			}
			// The solver chooses the vector; greedy stands in until then.
			isOptimal = true
			p = scenario.Policy{Kind: scenario.Greedy}
		}
		pol = p
	} else if pol.Kind == scenario.Explicit && len(pol.Explicit) != n {
		if len(pol.Explicit) < n {
			return scenarioInfo{}, flagError("processors", "%d, but the policy vector of %s has %d entries; give --policy", n, o.File, len(pol.Explicit))
		}
		pol.Explicit = pol.Explicit[:n]
	}

	if o.Reconfigure != "" {
		r, err := scenario.ParseReconfigure(o.Reconfigure)
		if err != nil {
			return scenarioInfo{}, flagError("reconfigure", "%s, want never or at-checkpoint", quote.Value(o.Reconfigure))
		}
		rc = r
	}
	sc, err := scenario.New(sys, app, pol)
	var se *scenario.Error
	if err != nil && o.Policy != "" && errors.As(err, &se) && strings.HasPrefix(se.Field, "policy") {
		// The vector of --policy does not fit the scenario: the command
		// line is at fault.
		return scenarioInfo{}, flagError("policy", "%s: %s", o.Policy, se.Problem)
	}
	if err != nil {
		return scenarioInfo{}, err
	}
	sc.Reconfigure = rc
	sc.CheckpointPattern = pattern
	return scenarioInfo{sc: sc, app: appName, file: o.File, optimal: isOptimal}, nil
}

// firstCounts restricts an application described for more processor counts
// to the counts 1..n.
func firstCounts(app scenario.Application, n int) (scenario.Application, error) {
	if n > app.N() {
		return scenario.Application{}, flagError("processors", "%d, but the application is described for %d processor counts only; give --app or a larger scenario", n, app.N())
	}
	// Restrict without expanding the recovery cost to the file's N×N.
	return app.FirstCounts(n)
}

// problem returns the problem of a *scenario.Error, or the whole message.
func problem(err error) string {
	var se *scenario.Error
	if errors.As(err, &se) {
		return se.Problem
	}
	return err.Error()
}

// parseDuration reads a duration flag as a person types it.
func parseDuration(flag, value string) (float64, error) {
	v, err := scenario.ParseDuration(value)
	if err != nil {
		return 0, flagError(flag, "%v", err)
	}
	return v, nil
}

// positiveDuration reads a duration flag that must be above zero.
func positiveDuration(flag, value string) (float64, error) {
	v, err := parseDuration(flag, value)
	if err != nil {
		return 0, err
	}
	if !(v > 0) {
		return 0, flagError(flag, "%s, want a positive duration", quote.Value(value))
	}
	return v, nil
}

// modelOptions are the flags that configure the Markov model.
type modelOptions struct {
	Exact       bool
	OldCountBin int
	Workers     int
	MaxMemory   float64
}

func (o *modelOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&o.Exact, "exact", false, "build the full state space with full spare-chain rows (slow; for validation)")
	f.IntVar(&o.OldCountBin, "old-count-bin", 0, "keep the checkpoint's processor count of recovery costs R(p, a) only in bins of `K` used counts (approximate, with an error estimate; 0 or 1: exact)")
	cmd.MarkFlagsMutuallyExclusive("exact", "old-count-bin")
	f.IntVar(&o.Workers, "workers", 0, "goroutines computing the model (0: one per CPU)")
	f.Float64Var(&o.MaxMemory, "max-memory", 0, fmt.Sprintf("refuse a model estimated to need more than this many `GB` (0: %.3g)", (&uwt.SizeError{Transitions: float64(uwt.DefaultMaxTransitions)}).Bytes()/1e9))
}

// buildModel builds the model of a loaded scenario with mo's settings.
func buildModel(cmd *cobra.Command, info scenarioInfo, mo *modelOptions) (scenarioInfo, *uwt.Model, error) {
	set, err := mo.settings()
	if err != nil {
		return info, nil, err
	}
	m, err := uwt.New(cmd.Context(), info.sc, set)
	if err != nil {
		return info, nil, explainSize(err)
	}
	return info, m, nil
}

// explainSize returns a uwt.SizeError (the library's estimate) in the
// command's terms, and any other error as it is.
func explainSize(err error) error {
	var size *uwt.SizeError
	if errors.As(err, &size) {
		// The library's estimate, in the command's terms.
		advice := "use fewer processors (--processors) or a less volatile system (--mttf, --mttr)"
		if size.Exact {
			advice = "drop --exact: the default fast path builds only the likely functional counts"
		}
		what := fmt.Sprintf("about %d states", size.States)
		if size.Transitions > 0 {
			what = fmt.Sprintf("about %d states and up to %.3g transitions (≈ %.3g GB)", size.States, size.Transitions, size.Bytes()/1e9)
		}
		if size.States <= size.MaxStates {
			advice += ", or raise the limit with --max-memory"
		}
		return fmt.Errorf("the model of %d processors is too large: it needs %s; %s", size.N, what, advice)
	}
	return err
}

func (o *modelOptions) settings() (*uwt.Settings, error) {
	if o.Workers < 0 {
		return nil, flagError("workers", "%d, want 0 or more", o.Workers)
	}
	if math.IsNaN(o.MaxMemory) || o.MaxMemory < 0 || o.MaxMemory > 1e6 {
		return nil, flagError("max-memory", "%v, want a number of GB in [0, 10⁶]", o.MaxMemory)
	}
	if o.OldCountBin < 0 {
		return nil, flagError("old-count-bin", "%d, want 0 or more", o.OldCountBin)
	}
	if o.Exact && o.OldCountBin > 1 {
		return nil, flagError("old-count-bin", "cannot be used with --exact (the exact path keeps every old count)")
	}
	set := &uwt.Settings{Exact: o.Exact, Workers: o.Workers, OldCountBin: o.OldCountBin}
	if o.MaxMemory > 0 {
		set.MaxTransitions = max(uwt.TransitionsWithin(o.MaxMemory*1e9), 1)
	}
	return set, nil
}

// path names the model's evaluation path for people.
func (o *modelOptions) path() string {
	if o.Exact {
		return "exact (every state, full spare-chain rows)"
	}
	return "fast (window of likely functional counts)"
}

// outputOptions are the flags that choose the output format.
type outputOptions struct {
	JSON bool
	CSV  bool
}

func (o *outputOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&o.JSON, "json", false, "print JSON (times in seconds)")
	f.BoolVar(&o.CSV, "csv", false, "print CSV with a header row (times in seconds)")
	cmd.MarkFlagsMutuallyExclusive("json", "csv")
}

// parseCounts reads a list of processor counts such as "1-16,32,64" with
// every count in [1, n], in the order given, without repeats.
func parseCounts(s string, n int) ([]int, error) {
	var out []int
	seen := make(map[int]bool)
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			return nil, fmt.Errorf("%s is not a count or a range like 4-16", quote.Value(part))
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
				return nil, fmt.Errorf("%s is not a count or a range like 4-16", quote.Value(part))
			}
		}
		if a < 1 || b > n || a > b {
			return nil, fmt.Errorf("%s is outside 1..%d or empty", quote.Value(part), n)
		}
		for c := a; c <= b; c++ {
			if seen[c] {
				return nil, fmt.Errorf("count %d given twice", c)
			}
			seen[c] = true
			out = append(out, c)
		}
	}
	return out, nil
}
