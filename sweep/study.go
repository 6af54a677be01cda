package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
)

// Bounds on the sizes a study file may ask for, checked before anything is
// allocated for them.
const (
	// MaxStudyBytes bounds the size of a study file.
	MaxStudyBytes = 1 << 20
	// MaxTasks bounds the number of tasks a study expands to.
	MaxTasks = 1_000_000
	// MaxAxis bounds the number of values of one axis.
	MaxAxis = 10_000
	// MaxSegments bounds the segments per system of a trace study.
	MaxSegments = 100_000
	// MaxProcessors bounds a processor count of a scenario study.
	MaxProcessors = 1 << 16
	// MaxReplications bounds the replications of a simulation.
	MaxReplications = 1 << 20
	// MaxShards bounds the number of shards a study is split into.
	MaxShards = 100_000
)

// The computations a study can ask for.
const (
	// Optimize searches I*, the interval of the most useful work (uwt.Optimize).
	Optimize = "optimize"
	// UWT evaluates UWT at each interval of the study (uwt.Model.Evaluate).
	UWT = "uwt"
	// Simulate simulates the scenario at each interval of the study, or at
	// I* when it gives none (sim.Run), beside the model's UWT.
	Simulate = "simulate"
	// Evaluate replays random segments of real traces (evaluate.Run).
	Evaluate = "evaluate"
)

// Study is a parsed study file: the axes to sweep and what to compute at
// each point. Paths in it are relative to the study file's directory.
type Study struct {
	// Name names the study (letters, digits, '-', '_' and '.'); it names
	// the Slurm job.
	Name string `json:"name"`
	// Seed is the study's seed; every task's seed derives from it and the
	// task's identity.
	Seed uint64 `json:"seed"`
	// Compute lists the computations: "optimize", "uwt" and "simulate"
	// apply to Scenarios, "evaluate" to Traces.
	Compute []string `json:"compute"`
	// Scenarios is the scenario grid, if any.
	Scenarios *ScenarioAxes `json:"scenarios,omitempty"`
	// Traces are the traces to replay, if any.
	Traces *TraceAxes `json:"traces,omitempty"`
	// Simulation configures "simulate".
	Simulation *SimulationSettings `json:"simulation,omitempty"`
	// Slurm holds default sbatch options.
	Slurm *SlurmSettings `json:"slurm,omitempty"`

	// dir is the directory the paths are relative to; hash identifies the
	// study's content.
	dir  string
	hash string
	raw  []byte
	// blk are the blocks of Task (Study.blocks), once validated.
	blk []block
}

// ScenarioAxes is a base scenario and the parameter ranges that replace
// parts of it. An empty axis keeps the base's value. Each task's point is
// applied to the base by scenario.Overrides.Apply, as the command line's
// flags are (docs/scenario.md, "Overrides").
type ScenarioAxes struct {
	// Base is a scenario file (the format of package scenario), or Files
	// several, each a base (the outermost axis); without either,
	// Application names a built-in benchmark and Processors, MTTF and
	// MTTR are required.
	Base  string   `json:"base,omitempty"`
	Files []string `json:"files,omitempty"`
	// Application is a built-in benchmark: "qr", "cg" or "md".
	Application string `json:"application,omitempty"`
	// Processors are the processor counts N.
	Processors []int `json:"processors,omitempty"`
	// MTTF and MTTR are per-processor mean times to failure and repair:
	// seconds or duration strings such as "100d".
	MTTF []Duration `json:"mttf,omitempty"`
	MTTR []Duration `json:"mttr,omitempty"`
	// CheckpointLatency sets L(a) = C(a) to the value for every a (a
	// blocking checkpoint, what a scenario file means when it gives no
	// overhead).
	CheckpointLatency []Duration `json:"checkpoint_latency,omitempty"`
	// Recovery sets R(p, a) to the value for every p and a.
	Recovery []Duration `json:"recovery,omitempty"`
	// Policies are rescheduling policies as the command line takes them:
	// "greedy", "pb", "moldable:A", "vector:r1,...,rN", "optimal" (the
	// optimal policy with one interval, docs/optimal-policy.md level 2:
	// optimize reports r* at I*, uwt g*(I), simulate the vector r*).
	Policies []string `json:"policies,omitempty"`
	// Intervals are the checkpoint intervals of "uwt" (required) and
	// "simulate" (default: I*).
	Intervals []Duration `json:"intervals,omitempty"`
}

// TraceAxes are failure traces, applications, policies and segments for
// "evaluate".
type TraceAxes struct {
	// LANL is the LANL failure-data CSV and Systems the system ids read
	// from it.
	LANL    string `json:"lanl,omitempty"`
	Systems []int  `json:"systems,omitempty"`
	// Generic are traces in the generic format of package trace.
	Generic []string `json:"generic,omitempty"`
	// Applications are built-in benchmarks. Default qr, cg, md.
	Applications []string `json:"applications,omitempty"`
	// Policies are the forms evaluate takes: greedy, pb, ab, moldable:A.
	// Default greedy.
	Policies []string `json:"policies,omitempty"`
	// Segments is the number of random segments per system. Default
	// evaluate.DefaultSegments.
	Segments int `json:"segments,omitempty"`
	// Processors is N; 0 means min(nodes, 512) for each system.
	Processors int `json:"processors,omitempty"`
	// MinDuration and MaxDuration bound the segment durations; zero
	// means evaluate's defaults.
	MinDuration Duration `json:"min_duration,omitempty"`
	MaxDuration Duration `json:"max_duration,omitempty"`
	// Rule is the node rule: most-reliable (default), random, lowest-index.
	Rule string `json:"rule,omitempty"`
}

// SimulationSettings configures "simulate" (see sim.Settings); zero values
// mean sim's defaults.
type SimulationSettings struct {
	Replications int      `json:"replications,omitempty"`
	Horizon      Duration `json:"horizon,omitempty"`
	RelTol       float64  `json:"rel_tol,omitempty"`
	Confidence   float64  `json:"confidence,omitempty"`
}

// SlurmSettings are sbatch options; the command line overrides them.
type SlurmSettings struct {
	Partition string `json:"partition,omitempty"`
	Time      string `json:"time,omitempty"`
	Mem       string `json:"mem,omitempty"`
	Account   string `json:"account,omitempty"`
	// CPUs is the CPUs per array task (sbatch --cpus-per-task, the
	// command line's --cpus); 0 leaves it to Slurm.
	CPUs int `json:"cpus,omitempty"`
}

// MaxCPUs bounds SlurmSettings.CPUs.
const MaxCPUs = 4096

// Duration is a number of seconds read as a JSON number or a string such
// as "90m" or "100d" (scenario.ParseDuration).
type Duration float64

// UnmarshalJSON implements json.Unmarshaler. A string that is no
// duration reads as NaN, which validation reports with the field's name.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := scenario.ParseDuration(s)
		if err != nil {
			v = math.NaN()
		}
		*d = Duration(v)
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("want seconds or a duration string, got %s", b)
	}
	*d = Duration(v)
	return nil
}

// Load reads and validates the study file at path.
func Load(path string) (*Study, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := Parse(f, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return st, nil
}

// Parse reads and validates a study; dir is the directory its relative
// paths start from. Unknown fields, trailing data, files over
// MaxStudyBytes and studies of more than MaxTasks tasks are errors.
func Parse(r io.Reader, dir string) (*Study, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxStudyBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxStudyBytes {
		return nil, fmt.Errorf("sweep: study is larger than %d bytes", MaxStudyBytes)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New(`sweep: study: the file is empty, want a JSON object such as {"name": "s", "compute": ["optimize"], "scenarios": {…}}`)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var st Study
	if err := dec.Decode(&st); err != nil {
		return nil, fmt.Errorf("sweep: study: %w", err)
	}
	if dec.More() {
		return nil, errors.New("sweep: study: data after the JSON object")
	}
	if err := st.validate(); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	st.hash = hex.EncodeToString(sum[:])
	st.dir = dir
	st.raw = data
	return &st, nil
}

// Hash identifies the study file's content; result files carry it so that
// results of another study are never merged.
func (s *Study) Hash() string { return s.hash }

func fieldError(field, format string, args ...any) error {
	return fmt.Errorf("sweep: study: %s: %s", field, fmt.Sprintf(format, args...))
}

func (s *Study) validate() error {
	if s.Name == "" {
		return fieldError("name", "missing, want e.g. \"lanl-18-20\"")
	}
	if len(s.Name) > 64 || strings.IndexFunc(s.Name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
	}) >= 0 {
		return fieldError("name", "%s, want at most 64 letters, digits, '-', '_' or '.'", quote.Value(s.Name))
	}
	if len(s.Compute) == 0 {
		return fieldError("compute", "empty, want some of optimize, uwt, simulate, evaluate")
	}
	seen := map[string]bool{}
	var scen, tr bool
	for i, c := range s.Compute {
		if seen[c] {
			return fieldError(fmt.Sprintf("compute[%d]", i), "%s given twice", quote.Value(c))
		}
		seen[c] = true
		switch c {
		case Optimize, UWT, Simulate:
			scen = true
		case Evaluate:
			tr = true
		case "optimal":
			return fieldError(fmt.Sprintf("compute[%d]", i), "the optimal policy is a policy, not a computation: name it in scenarios.policies or traces.policies")
		default:
			return fieldError(fmt.Sprintf("compute[%d]", i), "%s, want optimize, uwt, simulate or evaluate", quote.Value(c))
		}
	}
	if scen != (s.Scenarios != nil) {
		if scen {
			return fieldError("scenarios", "missing, but compute asks for optimize, uwt or simulate")
		}
		return fieldError("scenarios", "given, but compute asks for none of optimize, uwt, simulate")
	}
	if tr != (s.Traces != nil) {
		if tr {
			return fieldError("traces", "missing, but compute asks for evaluate")
		}
		return fieldError("traces", "given, but compute does not ask for evaluate")
	}
	if s.Scenarios != nil {
		if err := s.Scenarios.validate(seen[UWT]); err != nil {
			return err
		}
	}
	if s.Traces != nil {
		if err := s.Traces.validate(); err != nil {
			return err
		}
	}
	if s.Simulation != nil {
		if err := s.Simulation.validate(); err != nil {
			return err
		}
	}
	if s.Slurm != nil {
		if err := s.Slurm.Validate(); err != nil {
			return err
		}
	}
	blk, total := s.blocks()
	if total.Cmp(big.NewInt(MaxTasks)) > 0 {
		return fieldError("compute", "the study expands to %s tasks, more than the limit of %d", total, MaxTasks)
	}
	s.blk = blk
	return nil
}

// axisLen bounds the length of an axis and rejects repeated values, which
// would make two tasks of one point.
func axisLen[T comparable](field string, v []T) error {
	if len(v) > MaxAxis {
		return fieldError(field, "%d values, want at most %d", len(v), MaxAxis)
	}
	seen := make(map[T]bool, len(v))
	for i, x := range v {
		if seen[x] {
			return fieldError(fmt.Sprintf("%s[%d]", field, i), "%v given twice", x)
		}
		seen[x] = true
	}
	return nil
}

func positiveDurations(field string, v []Duration) error {
	if err := axisLen(field, v); err != nil {
		return err
	}
	for i, d := range v {
		if !positive(float64(d)) {
			return fieldError(fmt.Sprintf("%s[%d]", field, i), "%s, want a finite positive duration of at most %v s (a thousand years)", durationText(d), maxSeconds)
		}
	}
	return nil
}

// durationText shows a bad duration; NaN stands for a string that is no
// duration.
func durationText(d Duration) string {
	if math.IsNaN(float64(d)) {
		return `not seconds nor a duration such as "90m" or "100d"`
	}
	return fmt.Sprint(float64(d))
}

func positive(x float64) bool { return x > 0 && x <= maxSeconds }

// maxSeconds bounds every duration: a thousand years, the bound of a
// simulation's horizon.
const maxSeconds = sim.MaxHorizonSeconds

func (a *ScenarioAxes) validate(needIntervals bool) error {
	if err := axisLen("scenarios.files", a.Files); err != nil {
		return err
	}
	hasBase := a.Base != "" || len(a.Files) > 0
	switch {
	case a.Base != "" && len(a.Files) > 0:
		return fieldError("scenarios.files", "give base or files, not both")
	case !hasBase && a.Application == "":
		return fieldError("scenarios", "give a base scenario file, files, or an application")
	case hasBase && a.Application != "":
		return fieldError("scenarios.application", "goes without a base scenario file")
	case a.Application != "" && !slices.Contains(bench.Names(), a.Application):
		return fieldError("scenarios.application", "%s, want one of %s", quote.Value(a.Application), strings.Join(bench.Names(), ", "))
	case !hasBase && (len(a.Processors) == 0 || len(a.MTTF) == 0 || len(a.MTTR) == 0):
		return fieldError("scenarios", "without a base file, processors, mttf and mttr are required")
	}
	if err := axisLen("scenarios.processors", a.Processors); err != nil {
		return err
	}
	for i, n := range a.Processors {
		if n < 1 || n > MaxProcessors {
			return fieldError(fmt.Sprintf("scenarios.processors[%d]", i), "%d, want 1 … %d", n, MaxProcessors)
		}
		if a.Application != "" && n > bench.MaxProcessors {
			return fieldError(fmt.Sprintf("scenarios.processors[%d]", i), "%d, the benchmarks go up to %d", n, bench.MaxProcessors)
		}
	}
	for _, ax := range []struct {
		field string
		v     []Duration
	}{{"mttf", a.MTTF}, {"mttr", a.MTTR}, {"checkpoint_latency", a.CheckpointLatency}, {"intervals", a.Intervals}} {
		if err := positiveDurations("scenarios."+ax.field, ax.v); err != nil {
			return err
		}
	}
	if err := axisLen("scenarios.recovery", a.Recovery); err != nil {
		return err
	}
	for i, r := range a.Recovery {
		if !(r >= 0 && float64(r) <= maxSeconds) {
			return fieldError(fmt.Sprintf("scenarios.recovery[%d]", i), "%s, want a finite duration ≥ 0", durationText(r))
		}
	}
	if err := axisLen("scenarios.policies", a.Policies); err != nil {
		return err
	}
	for i, p := range a.Policies {
		if _, err := parsePolicy(p, false); err != nil {
			return fieldError(fmt.Sprintf("scenarios.policies[%d]", i), "%v", err)
		}
	}
	if needIntervals && len(a.Intervals) == 0 {
		return fieldError("scenarios.intervals", "required by uwt")
	}
	return nil
}

// parsePolicy reads a policy of a study in the forms of the command line
// (scenario.ParsePolicy). It is the one place where a study's policy text
// becomes a scenario.Policy. The optimal policy (scenario.Optimal) has no
// vector here: a scenario task solves it (runner.optimal, package
// optimal), a trace task leaves it to package evaluate, which solves it
// per segment.
func parsePolicy(s string, traces bool) (scenario.Policy, error) {
	p, err := scenario.ParsePolicy(s)
	if err != nil {
		return p, err
	}
	switch {
	case p.Kind == scenario.AvailabilityBased && !traces:
		return p, fmt.Errorf("%s: the availability-based policy needs a failure history; use it in traces", quote.Value(s))
	}
	return p, nil
}

func (t *TraceAxes) validate() error {
	if t.LANL == "" && len(t.Generic) == 0 {
		return fieldError("traces", "give lanl with systems, or generic trace files")
	}
	if t.LANL != "" && len(t.Systems) == 0 {
		return fieldError("traces.systems", "required with lanl")
	}
	if t.LANL == "" && len(t.Systems) > 0 {
		return fieldError("traces.systems", "goes with lanl")
	}
	if err := axisLen("traces.systems", t.Systems); err != nil {
		return err
	}
	for _, ax := range []struct {
		field string
		v     []string
	}{{"generic", t.Generic}, {"applications", t.Applications}, {"policies", t.Policies}} {
		if err := axisLen("traces."+ax.field, ax.v); err != nil {
			return err
		}
	}
	names := map[string]bool{}
	for i, id := range t.Systems {
		if names[fmt.Sprint(id)] {
			return fieldError(fmt.Sprintf("traces.systems[%d]", i), "%d given twice", id)
		}
		names[fmt.Sprint(id)] = true
	}
	for i, g := range t.Generic {
		if names[filepath.Base(g)] {
			return fieldError(fmt.Sprintf("traces.generic[%d]", i), "%s: a trace of that name is given twice", quote.Value(g))
		}
		names[filepath.Base(g)] = true
	}
	for i, a := range t.Applications {
		if !slices.Contains(bench.Names(), a) {
			return fieldError(fmt.Sprintf("traces.applications[%d]", i), "%s, want one of %s", quote.Value(a), strings.Join(bench.Names(), ", "))
		}
	}
	for i, p := range t.Policies {
		if _, err := parsePolicy(p, true); err != nil {
			return fieldError(fmt.Sprintf("traces.policies[%d]", i), "%v", err)
		}
	}
	if _, err := sim.ParseRule(t.Rule); err != nil {
		return fieldError("traces.rule", "%v", err)
	}
	if t.Segments < 0 || t.Segments > MaxSegments {
		return fieldError("traces.segments", "%d, want 1 … %d (0: the default)", t.Segments, MaxSegments)
	}
	if t.Processors < 0 || t.Processors > MaxProcessors {
		return fieldError("traces.processors", "%d, want 0 … %d", t.Processors, MaxProcessors)
	}
	for _, d := range []struct {
		field string
		v     Duration
	}{{"min_duration", t.MinDuration}, {"max_duration", t.MaxDuration}} {
		if d.v != 0 && !positive(float64(d.v)) {
			return fieldError("traces."+d.field, "%s, want a finite positive duration of at most %v s (a thousand years)", durationText(d.v), maxSeconds)
		}
	}
	return nil
}

func (s *SimulationSettings) validate() error {
	if s.Replications != 0 && (s.Replications < 2 || s.Replications > MaxReplications) {
		return fieldError("simulation.replications", "%d, want 2 … %d", s.Replications, MaxReplications)
	}
	if s.Horizon != 0 && !positive(float64(s.Horizon)) {
		return fieldError("simulation.horizon", "%s, want a finite positive duration of at most %v s (a thousand years)", durationText(s.Horizon), sim.MaxHorizonSeconds)
	}
	if s.RelTol != s.RelTol || s.RelTol > 1 {
		return fieldError("simulation.rel_tol", "%v, want a target ≤ 1, or negative for one stage", s.RelTol)
	}
	if s.Confidence != 0 && !(s.Confidence > 0 && s.Confidence < 1) {
		return fieldError("simulation.confidence", "%v, want a level in (0, 1)", s.Confidence)
	}
	return nil
}

// Validate checks that the options are safe to write into an sbatch
// script: printable, without spaces, quotes or shell metacharacters.
func (s *SlurmSettings) Validate() error {
	for _, f := range []struct{ field, v string }{{"partition", s.Partition}, {"time", s.Time}, {"mem", s.Mem}, {"account", s.Account}} {
		if len(f.v) > 128 || strings.IndexFunc(f.v, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.:,+=@", r))
		}) >= 0 {
			return fieldError("slurm."+f.field, "%s, want at most 128 letters, digits or -_.:,+=@", quote.Value(f.v))
		}
	}
	if s.CPUs < 0 || s.CPUs > MaxCPUs {
		return fieldError("slurm.cpus", "%d, want 1 … %d (0: Slurm's default)", s.CPUs, MaxCPUs)
	}
	return nil
}
