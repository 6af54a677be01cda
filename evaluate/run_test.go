package evaluate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/internal/shareddata"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/sim"
	"github.com/ckpt-markov/markov/trace"
)

// testApps resolves two small applications: "lin", whose work rate grows
// with the count, and "peak", whose work rate a/(1 + (a−3)²/10) peaks at
// 4 processors (3.64, against 3.57 on 5).
func testApps(name string, n int) (scenario.Application, error) {
	rate := make([]float64, n)
	for a := 1; a <= n; a++ {
		switch name {
		case "lin":
			rate[a-1] = math.Pow(float64(a), 0.8)
		case "peak":
			rate[a-1] = float64(a) / (1 + 0.1*float64((a-3)*(a-3)))
		default:
			return scenario.Application{}, fmt.Errorf("no application %q", name)
		}
	}
	app := flatApp(rate, 0, 0, 20)
	for a := 1; a <= n; a++ {
		app.Latency[a-1] = 30 + float64(a)
		app.Overhead[a-1] = 30 + float64(a)
	}
	return app, nil
}

// testSystems are two synthetic exponential traces of 6 and 8 nodes over
// 200 days (MTTF 20 days, MTTR 5 hours per node).
func testSystems(t testing.TB) []System {
	rng := rand.New(rand.NewPCG(1, 1))
	return []System{
		{Name: "six", Trace: exponentialTrace(t, 6, 20*day, 5*3600, 200*day, rng)},
		{Name: "eight", Trace: exponentialTrace(t, 8, 20*day, 5*3600, 200*day, rng)},
	}
}

func testSettings(t testing.TB) *Settings {
	return &Settings{
		Systems:      testSystems(t),
		Applications: []string{"lin", "peak"},
		Resolve:      testApps,
		Policies:     policies(t, "greedy", "pb", "ab"),
		Processors:   6,
		Segments:     4,
		MinDuration:  2 * day,
		MaxDuration:  5 * day,
		MinHistory:   20 * day,
		Seed:         42,
	}
}

// TestRunReproducible: the table depends on the seed only, not on the
// number of workers; every row satisfies the invariants of its segments.
// The Random rule makes the seeds of the node choices matter too (the
// "peak" application under PB runs on 4 of 6 nodes).
func TestRunReproducible(t *testing.T) {
	ctx := context.Background()
	var tables []*Table
	for _, w := range []int{1, 3} {
		s := testSettings(t)
		s.Rule = sim.Random{}
		s.Workers = w
		tab, err := Run(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		tables = append(tables, tab)
	}
	if !reflect.DeepEqual(tables[0], tables[1]) {
		t.Fatal("tables differ between 1 and 3 workers")
	}
	tab := tables[0]
	if _, err := json.Marshal(tab); err != nil {
		t.Errorf("the table does not encode as JSON: %v", err)
	}
	if len(tab.Rows) != 2*2*3 {
		t.Fatalf("%d rows, want 12", len(tab.Rows))
	}
	segs := map[string][]SegmentResult{}
	for i, row := range tab.Rows {
		want := [3]string{[]string{"six", "eight"}[i/6], []string{"lin", "peak"}[i/3%2], []string{"greedy", "pb", "ab"}[i%3]}
		if got := [3]string{row.System, row.Application, row.Policy.String()}; got != want {
			t.Errorf("row %d is %v, want %v", i, got, want)
		}
		// Hand-computed r(6): greedy 6; PB 6 for "lin" (ω increasing),
		// 4 for "peak".
		wantUsed := map[string]float64{"greedy": 6, "pb": 6, "ab": row.Used.Mean}[row.Policy.String()]
		if row.Policy.String() == "pb" && row.Application == "peak" {
			wantUsed = 4
		}
		if row.Used.Mean != wantUsed || row.Used.Std != 0 && row.Policy.String() != "ab" {
			t.Errorf("row %d: r(6) %+v, want %v", i, row.Used, wantUsed)
		}
		if row.Processors != 6 || row.Segments != 4 || len(row.Results) != 4 {
			t.Errorf("row %d: %d processors, %d segments, %d results", i, row.Processors, row.Segments, len(row.Results))
		}
		for k := range row.Results {
			res := &row.Results[k]
			checkOutcomes(t, res)
			if res.Duration < 2*day || res.Duration > 5*day || res.Start < 20*day || res.Start+res.Duration > 200*day {
				t.Errorf("row %d: segment %+v outside the settings", i, res.Segment)
			}
			// The eight-node system runs on a random subset of 6.
			if row.System == "eight" {
				if !distinctNodes(res.Nodes, 6, 8) {
					t.Errorf("row %d: nodes %v, want 6 distinct of 0 … 7", i, res.Nodes)
				}
			} else if res.Nodes != nil {
				t.Errorf("row %d: nodes %v, want nil (all)", i, res.Nodes)
			}
		}
		// Every row of a system has the same segments.
		if prev, ok := segs[row.System]; ok {
			for k := range prev {
				if prev[k].Segment != row.Results[k].Segment || !slices.Equal(prev[k].Nodes, row.Results[k].Nodes) {
					t.Errorf("row %d: segment %d differs from the system's first row", i, k)
				}
			}
		} else {
			segs[row.System] = row.Results
		}
		checkSummary(t, &row)
	}

	s := testSettings(t)
	s.Rule = sim.Random{}
	s.Seed = 43
	other, err := Run(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if other.Rows[0].Results[0].Segment == tab.Rows[0].Results[0].Segment {
		t.Error("seeds 42 and 43 draw the same first segment")
	}
}

// distinctNodes reports whether nodes holds p distinct nodes of 0 … n−1
// in increasing order.
func distinctNodes(nodes []int, p, n int) bool {
	if len(nodes) != p {
		return false
	}
	for j, i := range nodes {
		if i < 0 || i >= n || (j > 0 && i <= nodes[j-1]) {
			return false
		}
	}
	return true
}

// TestRunFirstNodes: the FirstNodes subset runs on nodes 0 … N−1.
func TestRunFirstNodes(t *testing.T) {
	s := testSettings(t)
	s.Systems = s.Systems[1:]
	s.Subset = FirstNodes
	s.Policies = policies(t, "pb")
	tab, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range tab.Rows[0].Results {
		if !slices.Equal(res.Nodes, []int{0, 1, 2, 3, 4, 5}) {
			t.Errorf("nodes %v, want 0 … 5", res.Nodes)
		}
	}
}

// checkSummary recomputes the statistics of a row from its results.
func checkSummary(t *testing.T, row *Row) {
	t.Helper()
	n := float64(len(row.Results))
	var eff, eff2, mttf, uwtBest, used float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range row.Results {
		eff += r.Model.Efficiency
		eff2 += r.Model.Efficiency * r.Model.Efficiency
		lo, hi = min(lo, r.Model.Efficiency), max(hi, r.Model.Efficiency)
		mttf += r.MTTF
		uwtBest += r.Best.Work / r.Duration
		used += float64(r.Used)
	}
	mean := eff / n
	std := math.Sqrt(max(0, eff2-n*mean*mean) / (n - 1))
	const tol = 1e-12 // sums of a few numbers of order one
	if math.Abs(row.Efficiency.Mean-mean) > tol || math.Abs(row.Efficiency.Std-std) > 1e-6 ||
		row.Efficiency.Min != lo || row.Efficiency.Max != hi {
		t.Errorf("efficiency %+v, want mean %v std %v min %v max %v", row.Efficiency, mean, std, lo, hi)
	}
	if math.Abs(row.Used.Mean-used/n) > tol*row.Used.Mean {
		t.Errorf("mean r(N) %v, want %v", row.Used.Mean, used/n)
	}
	if math.Abs(row.MTTF-mttf/n) > tol*row.MTTF || math.Abs(row.BestUWT.Mean-uwtBest/n) > tol*row.BestUWT.Mean {
		t.Errorf("MTTF %v, best UWT %v; want %v, %v", row.MTTF, row.BestUWT.Mean, mttf/n, uwtBest/n)
	}
}

func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, testSettings(t)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: error %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	s := testSettings(t)
	calls := 0
	s.Progress = func(done, total int) {
		calls++
		if total != 48 {
			t.Errorf("progress total %d, want 48", total)
		}
		cancel()
	}
	if _, err := Run(ctx, s); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled during: error %v, want context.Canceled", err)
	}
	if calls != 1 {
		t.Errorf("progress called %d times after cancellation, want once", calls)
	}
}

func TestRunSettingsErrors(t *testing.T) {
	sys := testSystems(t)
	tests := []struct {
		name string
		edit func(*Settings)
	}{
		{"no systems", func(s *Settings) { s.Systems = nil }},
		{"nil trace", func(s *Settings) { s.Systems = []System{{Name: "x"}} }},
		{"same name", func(s *Settings) { s.Systems = []System{sys[0], sys[0]} }},
		{"processors", func(s *Settings) { s.Processors = 7 }},
		{"negative processors", func(s *Settings) { s.Processors = -1 }},
		{"subset", func(s *Settings) { s.Subset = 5 }},
		{"segments", func(s *Settings) { s.Segments = -2 }},
		{"too many segments", func(s *Settings) { s.Segments = MaxSegments + 1 }},
		{"durations", func(s *Settings) { s.MinDuration, s.MaxDuration = 5*day, 2*day }},
		{"history", func(s *Settings) { s.MinHistory = -1 }},
		{"rates", func(s *Settings) { s.Rates = MixedRates }},
		{"sweep", func(s *Settings) { s.Sweep.StartFraction = 2 }},
		{"workers", func(s *Settings) { s.Workers = -1 }},
		{"policy", func(s *Settings) { s.Policies = []scenario.Policy{{}, {Kind: 99}} }},
		{"application", func(s *Settings) { s.Applications = []string{"nope"} }},
		{"application size", func(s *Settings) {
			s.Resolve = func(name string, n int) (scenario.Application, error) { return testApps(name, n+1) }
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testSettings(t)
			tt.edit(s)
			if _, err := Run(context.Background(), s); err == nil {
				t.Error("no error")
			}
		})
	}
	if _, err := Run(context.Background(), nil); err == nil {
		t.Error("nil settings: no error")
	}
}

// TestRunContentSeeds: segments depend on the seed and the trace's
// content, not on the system's name (issue 16): the same trace under
// another name, or written out and read back as another file would be,
// gives the same table but for the name; a trace that differs by one
// outage moved by a second gives other segments.
func TestRunContentSeeds(t *testing.T) {
	tr := testSystems(t)[0].Trace
	var buf bytes.Buffer
	if err := trace.WriteGeneric(&buf, tr); err != nil {
		t.Fatal(err)
	}
	reread, err := trace.ReadGeneric(&buf)
	if err != nil {
		t.Fatal(err)
	}
	run := func(name string, tr *trace.Trace) *Table {
		t.Helper()
		s := testSettings(t)
		s.Systems = []System{{Name: name, Trace: tr}}
		tab, err := Run(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tab.Rows {
			if tab.Rows[i].System != name {
				t.Fatalf("row %d names system %q, want %q", i, tab.Rows[i].System, name)
			}
			tab.Rows[i].System = ""
		}
		return tab
	}
	first := run("cluster.csv", tr)
	if second := run("renamed-cluster.csv", reread); !reflect.DeepEqual(first, second) {
		t.Error("the same trace under another name gives another table")
	}
	nodes := make([]trace.Node, tr.NumNodes())
	for i := range nodes {
		nodes[i] = tr.Node(i)
	}
	moved := slices.Clone(nodes[0].Down)
	moved[0].Start++
	nodes[0].Down = moved
	other := run("cluster.csv", newTrace(t, nodes))
	if other.Rows[0].Results[0].Segment == first.Rows[0].Results[0].Segment {
		t.Error("a trace with one outage moved by 1 s draws the same first segment")
	}
}

// TestRunPerSystemProcessors (issue 12): systems of different sizes each
// run on their own min(nodes, bench.MaxProcessors) nodes, not on the
// smallest system's count; Settings.Processors, when set, applies to all.
func TestRunPerSystemProcessors(t *testing.T) {
	s := testSettings(t)
	s.Processors = 0
	s.Policies = policies(t, "pb")
	s.Segments = 2
	tab, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tab.Rows {
		want := map[string]int{"six": 6, "eight": 8}[row.System]
		if row.Processors != want || row.Nodes != want {
			t.Errorf("%s/%s: %d processors of %d nodes, want %d of %d", row.System, row.Application, row.Processors, row.Nodes, want, want)
		}
		for _, res := range row.Results {
			if res.Processors != want || res.Nodes != nil {
				t.Errorf("%s/%s: a segment on %d processors, nodes %v; want all %d", row.System, row.Application, res.Processors, res.Nodes, want)
			}
		}
	}
	s.Processors = 5
	tab, err = Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range tab.Rows {
		if row.Processors != 5 {
			t.Errorf("%s: %d processors, want 5 (Settings.Processors)", row.System, row.Processors)
		}
	}
}

// TestRunPerSystemProcessorsCap: a system of more than bench.MaxProcessors
// nodes runs on a subset of that many, beside a small system on all of
// its own.
func TestRunPerSystemProcessorsCap(t *testing.T) {
	if testing.Short() {
		t.Skip("a model of 512 processors")
	}
	rng := rand.New(rand.NewPCG(12, 1))
	big := exponentialTrace(t, bench.MaxProcessors+8, 200*day, 5*3600, 100*day, rng)
	small := exponentialTrace(t, 4, 20*day, 5*3600, 100*day, rng)
	s := testSettings(t)
	s.Systems = []System{{Name: "small", Trace: small}, {Name: "big", Trace: big}}
	s.Applications, s.Policies = []string{"lin"}, policies(t, "moldable:4")
	s.Processors, s.Segments = 0, 1
	tab, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if p := tab.Rows[0].Processors; p != 4 || tab.Rows[0].Results[0].Nodes != nil {
		t.Errorf("small system: %d processors, nodes %v; want all 4", p, tab.Rows[0].Results[0].Nodes)
	}
	if p, nodes := tab.Rows[1].Processors, tab.Rows[1].Results[0].Nodes; p != bench.MaxProcessors || !distinctNodes(nodes, p, bench.MaxProcessors+8) {
		t.Errorf("big system: %d processors on %d nodes; want %d of %d", p, len(nodes), bench.MaxProcessors, bench.MaxProcessors+8)
	}
}

// TestRunNotEvaluated (issue 12): a system whose trace is too short for
// the history and a segment, or whose history never holds a failure,
// gets one row that says why, and the other systems are evaluated.
func TestRunNotEvaluated(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 2))
	short := exponentialTrace(t, 6, 20*day, 5*3600, 21*day, rng) // 20 days of history + 5-day segments
	quiet := newTrace(t, []trace.Node{{Start: 0, End: 200 * day}, {Start: 0, End: 200 * day}})
	s := testSettings(t)
	s.Systems = append(s.Systems[:1], System{Name: "short", Trace: short}, System{Name: "quiet", Trace: quiet})
	s.Processors = 0
	s.Segments = 2
	tab, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2*3+2 {
		t.Fatalf("%d rows, want 6 for the evaluated system and one each for the others", len(tab.Rows))
	}
	for _, row := range tab.Rows[:6] {
		if row.System != "six" || row.Status != Evaluated || len(row.Results) != 2 {
			t.Errorf("row %s/%s/%s: status %v, %d results", row.System, row.Application, row.Policy, row.Status, len(row.Results))
		}
	}
	for k, want := range map[int]struct{ name, reason string }{6: {"short", "too short"}, 7: {"quiet", "enough history"}} {
		row := tab.Rows[k]
		if row.System != want.name || row.Status != NotEvaluated || !strings.Contains(row.Reason, want.reason) ||
			row.Application != "" || row.Results != nil {
			t.Errorf("row %d: %+v; want system %q not evaluated because %q", k, row, want.name, want.reason)
		}
	}
	if bad := tab.NotEvaluated(); len(bad) != 2 || bad[0].System != "short" || bad[1].System != "quiet" {
		t.Errorf("NotEvaluated: %v", bad)
	}
	if _, err := json.Marshal(tab); err != nil {
		t.Error(err)
	}
}

// lanlSystem reads one system of the LANL release from
// shared/data/lanl/failures.csv next to the module root, or skips.
func lanlSystem(t testing.TB, system int) *trace.Trace {
	t.Helper()
	f, err := os.Open(shareddata.LANL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := trace.ReadLANL(f, system)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestRunLANL evaluates a few segments of LANL system 20 (512 nodes) with
// the QR benchmark, greedy and performance based.
func TestRunLANL(t *testing.T) {
	tr := lanlSystem(t, 20)
	tab, err := Run(context.Background(), &Settings{
		Systems:      []System{{Name: "20", Trace: tr}},
		Applications: []string{"qr"},
		Policies:     policies(t, "greedy", "pb"),
		Segments:     3,
		Seed:         1,
	})
	if err != nil {
		t.Fatal(err)
	}
	begin, end := tr.Window()
	for _, row := range tab.Rows {
		if row.Processors != 512 || row.Nodes != 512 {
			t.Errorf("%s: %d of %d nodes, want all 512", row.Policy, row.Processors, row.Nodes)
		}
		for k := range row.Results {
			res := &row.Results[k]
			checkOutcomes(t, res)
			// The replay starts from the trace's state at the start.
			if want := tr.Functional(res.Start); res.Model.Initial != want {
				t.Errorf("%s segment %d: %d nodes up at the start, trace says %d", row.Policy, k, res.Model.Initial, want)
			}
			if res.Start < begin+DefaultMinHistory || res.Start+res.Duration > end ||
				res.Duration < DefaultMinDuration || res.Duration > DefaultMaxDuration {
				t.Errorf("%s segment %d: %+v outside the defaults", row.Policy, k, res.Segment)
			}
			if res.Model.Efficiency <= 0 {
				t.Errorf("%s segment %d: efficiency %v", row.Policy, k, res.Model.Efficiency)
			}
		}
		t.Logf("%s: MTTF %.0f d, MTTR %.1f h, efficiency %.3f (min %.3f), I* %.2f h, best %.2f h, UWT %.2f / %.2f",
			row.Policy, row.MTTF/day, row.MTTR/3600, row.Efficiency.Mean, row.Efficiency.Min,
			row.Interval.Mean/3600, row.BestInterval.Mean/3600, row.UWT.Mean, row.BestUWT.Mean)
	}
}

// policies parses policy names for a test table.
func policies(t testing.TB, names ...string) []scenario.Policy {
	t.Helper()
	out := make([]scenario.Policy, len(names))
	for i, n := range names {
		p, err := scenario.ParsePolicy(n)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = p
	}
	return out
}

// TestRunOptimal: the optimal policy without a vector is solved for each
// segment from its estimated rates; its model UWT (level 3 of
// docs/optimal-policy.md, one interval per configuration, at least level
// 2, the best vector with one interval) is at least
// that of greedy and pb at their own best intervals on the same segment
// (1e-6 allows for the interval searches' tolerances), and its replay runs.
func TestRunOptimal(t *testing.T) {
	s := testSettings(t)
	s.Policies = policies(t, "greedy", "pb", "optimal")
	s.Segments = 2
	tab, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]Row{}
	for _, r := range tab.Rows {
		byKey[r.System+"/"+r.Application+"/"+r.Policy.String()] = r
	}
	checked := 0
	for _, r := range tab.Rows {
		if r.Policy.Kind != scenario.Optimal {
			continue
		}
		checked += len(r.Results)
		for _, name := range []string{"greedy", "pb"} {
			other := byKey[r.System+"/"+r.Application+"/"+name]
			for k, res := range r.Results {
				o := other.Results[k]
				if res.ModelUWT < o.ModelUWT*(1-1e-6) {
					t.Errorf("%s/%s segment %d: optimal %.8g below %s %.8g", r.System, r.Application, k, res.ModelUWT, name, o.ModelUWT)
				}
				if res.Model.Work < 0 || !(res.Model.Efficiency > 0) {
					t.Errorf("%s/%s segment %d: replay work %v, efficiency %v", r.System, r.Application, k, res.Model.Work, res.Model.Efficiency)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no segment evaluated with the optimal policy")
	}
	t.Logf("%d segments with the optimal policy", checked)
}

// TestRunNoUsefulWork: on nodes whose mean up time (1 s) is far below
// any checkpoint (the applications' cost is over 30 s), no interval
// commits any work: the row says so (NoWork, efficiencies NaN), not
// 100 % efficiency from 0 work over 0 work. Oracle: the replayed work,
// 0 with every interval (BestUWT).
func TestRunNoUsefulWork(t *testing.T) {
	s := testSettings(t)
	s.Systems = []System{{Name: "fast", Trace: exponentialTrace(t, 6, 1, 3600, 60*day, rand.New(rand.NewPCG(3, 3)))}}
	s.Applications, s.Policies, s.Segments = []string{"lin"}, policies(t, "greedy"), 3
	tab, err := Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	r := tab.Rows[0]
	if r.Status != Evaluated || r.BestUWT.Max != 0 {
		t.Fatalf("status %v, best UWT %+v; want evaluated with no work", r.Status, r.BestUWT)
	}
	if r.NoWork != 3 || !math.IsNaN(r.Efficiency.Mean) || !math.IsNaN(r.PaperEfficiency.Min) {
		t.Errorf("NoWork %d, efficiency %+v, paper %+v; want 3 and NaN", r.NoWork, r.Efficiency, r.PaperEfficiency)
	}
	for _, res := range r.Results {
		if !res.NoWork() || !math.IsNaN(res.Model.Efficiency) {
			t.Errorf("segment at %v: NoWork %v, efficiency %v", res.Start, res.NoWork(), res.Model.Efficiency)
		}
	}
	// The usual traces keep their efficiencies.
	tab, err = Run(context.Background(), testSettings(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tab.Rows {
		if r.NoWork != 0 || !(r.Efficiency.Min > 0 && r.Efficiency.Max <= 1) {
			t.Errorf("%s %s %s: NoWork %d, efficiency %+v", r.System, r.Application, r.Policy, r.NoWork, r.Efficiency)
		}
	}
}

// TestRunDecisionTable: a decision table that depends on the checkpoint
// count p (docs/scenario.md, "Decision tables") is replayed as a table,
// not refused as "not a vector". Oracle: greedy, through a table whose
// only row of its own, X(6, 6) → 5, is never reached (a failure leaves
// fewer than 6 functional after a checkpoint on 6, and greedy never
// waits): every segment's model UWT (1e-9) and replayed work (1e-6, for
// the interval searches' last digits) are greedy's. Power: a table whose
// row p = 6 recovers on 3 instead of 4-6 is reached, and its replayed
// work differs from greedy's in some segment by more than 1e-3.
func TestRunDecisionTable(t *testing.T) {
	run := func(names ...string) map[string][]SegmentResult {
		s := testSettings(t)
		s.Applications, s.Policies, s.Segments = []string{"lin"}, policies(t, names...), 3
		tab, err := Run(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]SegmentResult{}
		for _, r := range tab.Rows {
			out[r.System+"/"+r.Policy.String()] = r.Results
		}
		return out
	}
	const (
		unreached = "table:1-6: n; p=6: 6: 5"
		reached   = "table:1-6: n; p=6: 3-6: 3"
	)
	rows := run("greedy", unreached, reached)
	differs := false
	for _, sys := range []string{"six", "eight"} {
		greedy, same, other := rows[sys+"/greedy"], rows[sys+"/"+unreached], rows[sys+"/"+reached]
		if len(greedy) == 0 || len(same) != len(greedy) || len(other) != len(greedy) {
			t.Fatalf("system %s: %d, %d and %d segments", sys, len(greedy), len(same), len(other))
		}
		for k, g := range greedy {
			if d := math.Abs(same[k].ModelUWT - g.ModelUWT); d > 1e-9*g.ModelUWT {
				t.Errorf("system %s segment %d: table's model UWT %.15g, greedy's %.15g", sys, k, same[k].ModelUWT, g.ModelUWT)
			}
			if d := math.Abs(same[k].Model.Work - g.Model.Work); d > 1e-6*g.Model.Work {
				t.Errorf("system %s segment %d: table's replayed work %.15g, greedy's %.15g", sys, k, same[k].Model.Work, g.Model.Work)
			}
			if math.Abs(other[k].Model.Work-g.Model.Work) > 1e-3*g.Model.Work {
				differs = true
			}
		}
	}
	if !differs {
		t.Error("the table that recovers on 3 after a checkpoint on 6 replays as greedy in every segment: its row is ignored")
	}
}
