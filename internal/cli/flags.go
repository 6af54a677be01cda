package cli

import (
	"cmp"
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

// scenarioOptions are the flags that choose the scenario: a file (or the
// built-in scenario, scenario.DefaultSystem) and the parts that override
// it (scenario.Overrides).
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
	// Checkpoint sets the latency and, without Overhead, the overhead;
	// Overhead the overhead, Recovery the recovery cost, Work the work
	// rate's form.
	Checkpoint, Overhead, Recovery, Work string

	// jobWork is whether the command's --work is a job's failure-free time
	// (availability, intervals), so that the work-rate form has no flag.
	jobWork bool
}

func (o *scenarioOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&o.File, "scenario", "s", "", "scenario `FILE` (JSON); default: the built-in scenario")
	f.IntVarP(&o.Processors, "processors", "n", 0, "override the number of processors `N`")
	f.StringVar(&o.MTTF, "mttf", "", "override the per-processor mean time to failure (`DURATION`, e.g. 100d)")
	f.StringVar(&o.MTTR, "mttr", "", "override the per-processor mean time to repair (`DURATION`, e.g. 1h)")
	f.StringVar(&o.App, "app", "", "use the benchmark application `NAME`: "+strings.Join(bench.Names(), ", "))
	f.StringVar(&o.Policy, "policy", "", policyHelp(true))
	f.StringVar(&o.Reconfigure, "reconfigure", "", "override `WHEN` a running application changes its processor count: never (the paper's model) or at-checkpoint (onto r(n) at every checkpoint; docs/optimal-policy.md section 1)")
	f.StringVar(&o.Checkpoint, "checkpoint", "", "override the checkpoint latency L(a) on every count with `DURATION`, and the overhead C(a) too unless --overhead is given (a blocking checkpoint)")
	f.StringVar(&o.Overhead, "overhead", "", "override the checkpoint overhead C(a) on every count (`DURATION`, at most the latency)")
	f.StringVar(&o.Recovery, "recovery", "", "override the recovery cost R(p, a) on every count (`DURATION`)")
	if !o.jobWork {
		f.StringVar(&o.Work, "work", "", workFormHelp)
	}
}

// workFormHelp is the help of --work on the model commands.
const workFormHelp = "override the work rate ω(a) with the `FORM` linear (ω = a), amdahl:F (a/(1 + F(a−1)), serial fraction F) or power:E (a^E)"

// takeWorkForm serves the commands whose --work is also a job's
// failure-free time (availability, intervals): a value whose name is a
// work-rate form (linear, amdahl, power) overrides ω(a) as --work FORM
// does on the other model commands, and is taken out of *work; any other
// value stays there, a DURATION.
func (o *scenarioOptions) takeWorkForm(work *string) {
	name, _, _ := strings.Cut(strings.TrimSpace(*work), ":")
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "linear", "amdahl", "power":
		o.Work, *work = *work, ""
	}
}

// scenarioInfo is the scenario a command used, with a description for
// people.
type scenarioInfo struct {
	// parts are the scenario's parts (scenario.Overrides.Resolve); their
	// policy is the optimal policy not yet solved with --policy optimal
	// (loadOptimal), which no scenario holds.
	parts scenario.Parts
	// sc is the scenario of the parts; nil with --policy optimal.
	sc *scenario.Scenario
	// app names the benchmark application, or is empty for one from a file.
	app string
	// file is the scenario file, if any.
	file string
	// ov are the overrides the flags gave.
	ov scenario.Overrides
}

// describe returns a one-line description of the scenario.
func (s scenarioInfo) describe() string {
	sys := s.parts.System
	out := fmt.Sprintf("%s on %s, MTTF %s, MTTR %s, policy %s",
		s.application(), processors(sys.Processors), scenario.FormatDuration(sys.MTTF), scenario.FormatDuration(sys.MTTR), s.shortPolicy())
	if s.parts.Reconfigure != scenario.Never {
		out += ", reconfigure " + s.parts.Reconfigure.String()
	}
	for _, c := range s.costs() {
		out += ", " + c.name + " " + c.text
	}
	return out
}

// cost is an application input a flag overrode, for people.
type cost struct{ name, text string }

// costs lists the overridden costs and work rate, in the order of the
// flags' help: the application's name alone no longer describes them.
func (s scenarioInfo) costs() []cost {
	var out []cost
	for _, c := range []struct {
		name string
		v    *float64
	}{{"checkpoint", s.ov.Latency}, {"overhead", s.ov.Overhead}, {"recovery", s.ov.Recovery}} {
		if c.v != nil {
			out = append(out, cost{c.name, scenario.FormatDuration(*c.v)})
		}
	}
	if s.ov.Work != nil {
		out = append(out, cost{"work", s.ov.Work.String()})
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
	// CheckpointLatency, CheckpointOverhead and Recovery (seconds) and
	// WorkRate (a form of --work) are present when a flag overrode them.
	CheckpointLatency  *jsonFloat `json:"checkpoint_latency,omitempty"`
	CheckpointOverhead *jsonFloat `json:"checkpoint_overhead,omitempty"`
	Recovery           *jsonFloat `json:"recovery,omitempty"`
	WorkRate           string     `json:"work_rate,omitempty"`
}

func (s scenarioInfo) json() scenarioJSON {
	return scenarioJSON{
		Application:        s.application(),
		Processors:         s.parts.System.Processors,
		MTTF:               jsonFloat(s.parts.System.MTTF),
		MTTR:               jsonFloat(s.parts.System.MTTR),
		Policy:             s.policy(),
		Reconfigure:        reconfigureJSON(s.parts.Reconfigure),
		CheckpointLatency:  seconds(s.ov.Latency),
		CheckpointOverhead: seconds(cmp.Or(s.ov.Overhead, s.ov.Latency)),
		Recovery:           seconds(s.ov.Recovery),
		WorkRate:           workText(s.ov.Work),
	}
}

// seconds is an overridden time for JSON, nil when not overridden.
func seconds(v *float64) *jsonFloat {
	if v == nil {
		return nil
	}
	x := jsonFloat(*v)
	return &x
}

// workText is an overridden work form for JSON, empty when not overridden.
func workText(w *scenario.WorkForm) string {
	if w == nil {
		return ""
	}
	return w.String()
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
	if len(p) <= maxPolicyText || s.sc == nil || s.sc.Policy.Kind != scenario.Explicit {
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

// policy names the scenario's policy ("optimal" for the optimal policy,
// solved or not).
func (s scenarioInfo) policy() string {
	return s.parts.Policy.String()
}

// overrides reads the overriding flags; errors name the flag. --policy
// optimal is an error unless optimalOK.
func (o *scenarioOptions) overrides(cmd *cobra.Command, optimalOK bool) (scenario.Overrides, error) {
	var ov scenario.Overrides
	if cmd.Flags().Changed("processors") {
		ov.Processors = &o.Processors
	}
	for _, d := range []struct {
		flag, value string
		dst         **float64
	}{
		{"mttf", o.MTTF, &ov.MTTF}, {"mttr", o.MTTR, &ov.MTTR},
		{"checkpoint", o.Checkpoint, &ov.Latency}, {"overhead", o.Overhead, &ov.Overhead}, {"recovery", o.Recovery, &ov.Recovery},
	} {
		if d.value == "" {
			continue
		}
		v, err := parseDuration(d.flag, d.value)
		if err != nil {
			return ov, err
		}
		*d.dst = &v
	}
	ov.Application = o.App
	if o.Policy != "" {
		p, err := scenario.ParsePolicy(o.Policy)
		if err != nil {
			return ov, flagError("policy", "%s", problem(err))
		}
		if p.Unsolved() && !optimalOK {
			return ov, flagError("policy", "%s: the optimal policy is not available in this command", quote.Value(o.Policy))
		}
		ov.Policy = &p
	}
	if o.Reconfigure != "" {
		r, err := scenario.ParseReconfigure(o.Reconfigure)
		if err != nil {
			return ov, flagError("reconfigure", "%s, want never or at-checkpoint", quote.Value(o.Reconfigure))
		}
		ov.Reconfigure = &r
	}
	if o.Work != "" {
		w, err := scenario.ParseWork(o.Work)
		if err != nil {
			return ov, flagError("work", "%v", err)
		}
		ov.Work = &w
	}
	return ov, nil
}

// overrideFlags names the flag of each override.
var overrideFlags = map[string]string{
	scenario.OverrideProcessors:  "processors",
	scenario.OverrideMTTF:        "mttf",
	scenario.OverrideMTTR:        "mttr",
	scenario.OverrideApplication: "app",
	scenario.OverridePolicy:      "policy",
	scenario.OverrideReconfigure: "reconfigure",
	scenario.OverrideLatency:     "checkpoint",
	scenario.OverrideOverhead:    "overhead",
	scenario.OverrideRecovery:    "recovery",
	scenario.OverrideWork:        "work",
}

// load reads the scenario file (or takes the built-in scenario) and applies
// the overriding flags (scenario.Overrides.Apply); --policy optimal is a
// flag error (loadOptimal takes it).
func (o *scenarioOptions) load(cmd *cobra.Command) (scenarioInfo, error) {
	return o.loadPolicy(cmd, false)
}

// loadOptimal is load for --policy optimal: the parts of the scenario
// (scenario.Overrides.Resolve), whose policy is the optimal policy not
// yet solved, with the system and application that optimal.Solve takes;
// info.sc is nil.
func (o *scenarioOptions) loadOptimal(cmd *cobra.Command) (scenarioInfo, error) {
	return o.loadPolicy(cmd, true)
}

func (o *scenarioOptions) loadPolicy(cmd *cobra.Command, optimalOK bool) (scenarioInfo, error) {
	ov, err := o.overrides(cmd, optimalOK)
	if err != nil {
		return scenarioInfo{}, err
	}
	var base *scenario.Scenario
	if o.File != "" {
		if base, err = scenario.Load(o.File, &scenario.ParseSettings{Applications: bench.Application}); err != nil {
			return scenarioInfo{}, err
		}
	}
	info := scenarioInfo{app: o.App, file: o.File, ov: ov}
	set := &scenario.OverrideSettings{Applications: bench.Application}
	info.parts, err = ov.Resolve(base, set)
	if err == nil && !info.parts.Policy.Unsolved() {
		// A solved policy: the parts are validated, their scenario is
		// what Apply returns.
		info.sc, err = info.parts.Scenario()
	}
	var oe *scenario.OverrideError
	if errors.As(err, &oe) {
		flag := overrideFlags[oe.Override]
		if flag == "overhead" && ov.Overhead == nil {
			flag = "checkpoint" // --checkpoint set the overhead
		}
		return scenarioInfo{}, flagError(flag, "%s", oe.Problem)
	}
	if err != nil {
		return scenarioInfo{}, err
	}
	if base == nil && info.app == "" {
		info.app = scenario.DefaultApplication
	}
	return info, nil
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

// modelFlags are the flag groups of the commands that evaluate the
// model of a scenario under a policy that may be --policy optimal
// (uwt, optimize, simulate): the scenario, the model, the output and
// the optimal policy's flags.
type modelFlags struct {
	env      *env
	Scenario scenarioOptions
	Model    modelOptions
	Output   outputOptions
	Optimal  optimalOptions
}

// register adds the groups' flags to cmd.
func (m *modelFlags) register(cmd *cobra.Command) {
	m.Scenario.register(cmd)
	m.Model.register(cmd)
	m.Output.register(cmd)
	m.Optimal.register(cmd)
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
