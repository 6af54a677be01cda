package bench_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// minAvgMax is one row half of the paper's Table I.
type minAvgMax struct{ min, avg, max float64 }

// tableI holds the paper's Table I (section VI-B): checkpoint overhead C
// and recovery cost R in seconds, minimum, average and maximum over the
// processor configurations 1..512.
var tableI = map[string]struct{ c, r minAvgMax }{
	"qr": {c: minAvgMax{91.90, 99.19, 117.28}, r: minAvgMax{8.74, 17.21, 32.97}},
	"cg": {c: minAvgMax{8.96, 9.55, 9.75}, r: minAvgMax{8.89, 12.56, 15.12}},
	"md": {c: minAvgMax{1.35, 1.84, 2.70}, r: minAvgMax{8.27, 14.12, 17.05}},
}

// tableIIIBestUWT is the paper's Table III, last column: the best useful
// work per second of each application on 128 processors of LANL system-1
// with the greedy policy.
var tableIIIBestUWT = map[string]float64{"qr": 10.47, "cg": 0.88, "md": 19.72}

func mustApp(t testing.TB, name string, n int) scenario.Application {
	t.Helper()
	app, err := bench.Application(name, n)
	if err != nil {
		t.Fatalf("Application(%q, %d): %v", name, n, err)
	}
	return app
}

func stats(v []float64) minAvgMax {
	s := minAvgMax{min: math.Inf(1), max: math.Inf(-1)}
	for _, x := range v {
		s.min = math.Min(s.min, x)
		s.max = math.Max(s.max, x)
		s.avg += x
	}
	s.avg /= float64(len(v))
	return s
}

// checkStats compares got against the published want: minimum and maximum
// exactly, the average to 1e-9 (the curves are designed to hit the
// published two-decimal value, not merely to round to it).
func checkStats(t *testing.T, what string, got, want minAvgMax) {
	t.Helper()
	if got.min != want.min || got.max != want.max {
		t.Errorf("%s: min, max = %v, %v, want %v, %v (Table I)", what, got.min, got.max, want.min, want.max)
	}
	if math.Abs(got.avg-want.avg) > 1e-9 {
		t.Errorf("%s: average %.12f, want %.2f (Table I)", what, got.avg, want.avg)
	}
}

func TestTableI(t *testing.T) {
	for _, name := range bench.Names() {
		want, ok := tableI[name]
		if !ok {
			t.Fatalf("no Table I row for %q", name)
		}
		app := mustApp(t, name, bench.MaxProcessors)
		checkStats(t, name+" checkpoint overhead C", stats(app.Overhead), want.c)
		if !slices.Equal(app.Latency, app.Overhead) {
			t.Errorf("%s: latency differs from overhead; the paper assumes L = C", name)
		}
		var all []float64
		for _, row := range app.Recovery.Matrix(bench.MaxProcessors) {
			all = append(all, row...)
		}
		checkStats(t, name+" recovery R(p, a)", stats(all), want.r)
	}
}

// TestScalingOrder checks the paper's Figure 4 description: MD scales
// best, QR less, CG least (speed-up ω(512)/ω(1)), and MD does the most work
// per second at large counts.
func TestScalingOrder(t *testing.T) {
	speedup := map[string]float64{}
	for _, name := range bench.Names() {
		w := mustApp(t, name, bench.MaxProcessors).WorkRate
		speedup[name] = w[bench.MaxProcessors-1] / w[0]
	}
	if !(speedup["md"] > speedup["qr"] && speedup["qr"] > speedup["cg"]) {
		t.Errorf("speed-ups ω(512)/ω(1) = %v, want md > qr > cg", speedup)
	}
	for _, a := range []int{128, 256, 512} {
		var best string
		bestW := 0.0
		for _, name := range bench.Names() {
			if w := mustApp(t, name, a).WorkRate[a-1]; w > bestW {
				best, bestW = name, w
			}
		}
		if best != "md" {
			t.Errorf("ω(%d) is largest for %s, want md", a, best)
		}
	}
}

// TestBestUWTShare checks the paper's section VI-D statement that the
// best UWTs on 128 processors (Table III) are "within 4–11 %" of the
// failure-free maximum, over the counts the greedy policy can use. (UWT₁₂₈
// / ω(128) itself is 0.93 by construction, uwtShare, so it is not tested.)
func TestBestUWTShare(t *testing.T) {
	for _, name := range bench.Names() {
		w := mustApp(t, name, 128).WorkRate
		ratio := tableIIIBestUWT[name] / slices.Max(w)
		if ratio < 0.89 || ratio > 0.96 {
			t.Errorf("%s: UWT/max ω(1..128) = %.4f, want within [0.89, 0.96]", name, ratio)
		}
	}
}

// TestModelLossFirstOrder checks the reconstructed inputs through the
// Markov model against first-order checkpointing theory, which uses none
// of the model's machinery. On the paper's 128 processors of LANL
// system-1 (λ = 1/104.61 d, θ = 1/56.03 min, Table II) with the greedy
// policy the job runs on a = 127 processors in the long run (the repaired
// one waits as a spare), with job MTBF M = MTTF/127 ≈ 71 000 s ≫ C, R:
//
//   - Young (1974): I* ≈ √(2CM);
//   - Daly (2006), first order: the fraction of ω(a) lost is about
//     √(2C/M) + (R + C)/M.
//
// Measured (go test ./bench -run ModelLoss -v): loss 5.16 %, 1.65 %,
// 0.69 % for qr, cg, md against Daly's 5.25 %, 1.66 %, 0.66 %; I* 3571 s,
// 1154 s, 456 s against Young's 3632 s, 1160 s, 457 s. The neglected terms
// are of relative order √(C/M) (5 % for qr), so the tolerances are 10 %
// on the loss and 5 % on I*. Only qr's loss lies in the paper's 4–11 %:
// the reconstruction's cg and md lose less to failures than Table III
// implies (it fixes ω(128) = UWT₁₂₈/0.93 for all three).
func TestModelLossFirstOrder(t *testing.T) {
	const n, a = 128, 127
	sys := scenario.System{Processors: n, MTTF: 104.61 * 86400, MTTR: 56.03 * 60}
	for _, name := range bench.Names() {
		app := mustApp(t, name, n)
		sc, err := scenario.New(sys, app, scenario.Policy{Kind: scenario.Greedy})
		if err != nil {
			t.Fatal(err)
		}
		m, err := uwt.New(context.Background(), sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		opt, err := m.Optimize(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		mj := sys.MTTF / a
		c, r := app.Overhead[a-1], app.Recovery.Cost(n, a)
		daly := math.Sqrt(2*c/mj) + (r+c)/mj
		loss := 1 - opt.UWT/app.WorkRate[a-1]
		if math.Abs(loss-daly) > 0.1*daly {
			t.Errorf("%s: loss 1 − UWT/ω(127) = %.4g, Daly's first order %.4g", name, loss, daly)
		}
		if young := math.Sqrt(2 * c * mj); math.Abs(opt.Interval-young) > 0.05*young {
			t.Errorf("%s: I* = %.4g s, Young's √(2CM) = %.4g s", name, opt.Interval, young)
		}
	}
}

// TestWorkRatePeak checks the work rate against the closed form of its
// derivative: d/da of a/(1 + α(a−1) + β a ln a) has the sign of 1 − α − βa,
// so with β = (1 − α)/a* the rate rises strictly up to a* and falls after
// it (a* = 200 for QR, 48 for CG, beyond 512 for MD; package doc). The
// argmax is taken by an independent algorithm, the performance-based
// rescheduling vector.
func TestWorkRatePeak(t *testing.T) {
	peak := map[string]int{"qr": 200, "cg": 48, "md": bench.MaxProcessors}
	for _, name := range bench.Names() {
		w := mustApp(t, name, bench.MaxProcessors).WorkRate
		pb, err := reschedule.PerformanceBased(w)
		if err != nil {
			t.Fatal(err)
		}
		if got := pb.At(bench.MaxProcessors); got != peak[name] {
			t.Errorf("%s: argmax ω = %d, want %d", name, got, peak[name])
		}
		for a := 2; a <= bench.MaxProcessors; a++ {
			rising := w[a-1] > w[a-2]
			if want := a <= peak[name]; rising != want {
				t.Errorf("%s: ω(%d) > ω(%d) is %v, want %v", name, a, a-1, rising, want)
			}
		}
	}
}

// TestQRTablesIIAndFigure5 cross-checks the QR work rate against published
// numbers it was not fitted to. Useful work per second can never exceed the
// best failure-free work rate available, so every best UWT of the paper's
// Table II (QR, greedy policy; N processors, UWT at the best interval) must
// be below max ω(1..N). The Condor run of Figure 5 (UWT 7.29 on 128
// processors) is "nearly 70 %" of the failure-free maximum.
func TestQRTablesIIAndFigure5(t *testing.T) {
	tableII := []struct {
		system string
		n      int
		uwt    float64
	}{
		{"system-1", 64, 9.45},
		{"system-1", 128, 10.46},
		{"system-2", 256, 9.85},
		{"system-2", 512, 10.17},
		{"condor", 64, 9.52},
		{"condor", 128, 9.08},
		{"condor", 256, 8.32},
	}
	for _, row := range tableII {
		w := mustApp(t, "qr", row.n).WorkRate
		if m := slices.Max(w); row.uwt >= m {
			t.Errorf("%s, %d processors: Table II best UWT %v ≥ max ω(1..%d) = %v", row.system, row.n, row.uwt, row.n, m)
		}
	}
	w := mustApp(t, "qr", 128).WorkRate
	if share := 7.29 / slices.Max(w); share < 0.60 || share > 0.70 {
		t.Errorf("Figure 5 UWT 7.29 is %.3f of max ω(1..128), want nearly 0.70 (within [0.60, 0.70])", share)
	}
}

// TestRecoveryShape checks the recovery matrix: n×n, depending on the old
// count for n ≥ 2, cheapest at (1, 1) and dearest at (1, n), costlier when
// growing than staying, and the same numbers for every prefix n.
func TestRecoveryShape(t *testing.T) {
	for _, name := range bench.Names() {
		full := mustApp(t, name, bench.MaxProcessors).Recovery.Matrix(bench.MaxProcessors)
		for _, n := range []int{1, 2, 3, 17, 128, 512} {
			rec := mustApp(t, name, n).Recovery
			if got, want := rec.DependsOnOld(), n >= 2; got != want {
				t.Errorf("%s, n = %d: DependsOnOld = %v, want %v", name, n, got, want)
			}
			m := rec.Matrix(n)
			if len(m) != n {
				t.Fatalf("%s, n = %d: %d rows", name, n, len(m))
			}
			for p := range n {
				if len(m[p]) != n {
					t.Fatalf("%s, n = %d: row %d has %d entries", name, n, p+1, len(m[p]))
				}
				if !slices.Equal(m[p], full[p][:n]) {
					t.Errorf("%s, n = %d: row %d differs from the 512-processor matrix", name, n, p+1)
				}
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for p := range n {
				lo, hi = math.Min(lo, slices.Min(m[p])), math.Max(hi, slices.Max(m[p]))
			}
			if m[0][0] != lo || m[0][n-1] != hi {
				t.Errorf("%s, n = %d: R(1,1) = %v, R(1,n) = %v, want min %v and max %v", name, n, m[0][0], m[0][n-1], lo, hi)
			}
		}
		// Growing from p to a > p costs more than restoring onto p itself.
		for _, pa := range [][2]int{{1, 2}, {16, 64}, {64, 128}, {100, 512}} {
			p, a := pa[0], pa[1]
			if !(full[p-1][a-1] > full[p-1][p-1]) {
				t.Errorf("%s: R(%d,%d) = %v not above R(%d,%d) = %v", name, p, a, full[p-1][a-1], p, p, full[p-1][p-1])
			}
		}
	}
}

// TestValidates checks that every application is a valid
// scenario.Application and builds a scenario with each policy.
func TestValidates(t *testing.T) {
	sys := scenario.System{MTTF: 104.61 * 86400, MTTR: 56.03 * 60} // Table II, system-1
	for _, name := range bench.Names() {
		for _, n := range []int{1, 2, 5, 48, 128, 512} {
			app := mustApp(t, name, n)
			if app.N() != n {
				t.Errorf("%s: N() = %d, want %d", name, app.N(), n)
			}
			if err := app.Validate(n); err != nil {
				t.Errorf("%s, n = %d: %v", name, n, err)
			}
			sys.Processors = n
			for _, pol := range []scenario.Policy{{Kind: scenario.Greedy}, {Kind: scenario.PerformanceBased}, {Kind: scenario.Moldable, Processors: (n + 1) / 2}} {
				if _, err := scenario.New(sys, app, pol); err != nil {
					t.Errorf("%s, n = %d, policy %v: %v", name, n, pol, err)
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		want string
	}{
		{"qr", 0, "0 processors"},
		{"qr", -3, "-3 processors"},
		{"md", 513, "513 processors"},
		{"lu", 8, `unknown application "lu"`},
		{"", 8, `unknown application ""`},
	} {
		_, err := bench.Application(tc.name, tc.n)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Application(%q, %d) error %v, want one containing %q", tc.name, tc.n, err, tc.want)
		}
	}
	if _, err := bench.App(3).Application(4); err == nil {
		t.Error("App(3).Application: no error")
	}
	if s := bench.App(-1).String(); s != "App(-1)" {
		t.Errorf("App(-1).String() = %q", s)
	}
}

func TestNames(t *testing.T) {
	if got, want := bench.Names(), []string{"qr", "cg", "md"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	for i, app := range []bench.App{bench.QR, bench.CG, bench.MD} {
		name := bench.Names()[i]
		if app.String() != name {
			t.Errorf("%d.String() = %q, want %q", i, app.String(), name)
		}
		for _, spelled := range []string{name, strings.ToUpper(name)} {
			if got, err := bench.Lookup(spelled); err != nil || got != app {
				t.Errorf("Lookup(%q) = %v, %v, want %v", spelled, got, err, app)
			}
		}
		if app.Description() == "" {
			t.Errorf("%s: empty description", name)
		}
	}
}

// TestParseNamed plugs Application into scenario.Parse.
func TestParseNamed(t *testing.T) {
	settings := &scenario.ParseSettings{Applications: bench.Application}
	const file = `{"system": {"processors": 64, "mttf": "100d", "mttr": "1h"},
		"application": "qr", "policy": "greedy"}`
	s, err := scenario.Parse(strings.NewReader(file), settings)
	if err != nil {
		t.Fatal(err)
	}
	want := mustApp(t, "qr", 64)
	if !slices.Equal(s.Application.WorkRate, want.WorkRate) || !slices.Equal(s.Application.Overhead, want.Overhead) {
		t.Error("parsed application differs from Application(\"qr\", 64)")
	}
	if !s.Application.Recovery.DependsOnOld() {
		t.Error("parsed recovery lost its dependence on the old count")
	}

	_, err = scenario.Parse(strings.NewReader(strings.Replace(file, `"qr"`, `"lu"`, 1)), settings)
	var se *scenario.Error
	if !errors.As(err, &se) || se.Field != "application" || !strings.Contains(se.Problem, "unknown application") {
		t.Errorf("unknown name: error %v, want a scenario.Error on field application", err)
	}
	big := strings.Replace(file, `"processors": 64`, `"processors": 600`, 1)
	if _, err = scenario.Parse(strings.NewReader(big), settings); !errors.As(err, &se) || se.Field != "application" {
		t.Errorf("600 processors: error %v, want a scenario.Error on field application", err)
	}
}

func BenchmarkApplication512(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bench.Application("qr", bench.MaxProcessors); err != nil {
			b.Fatal(err)
		}
	}
}
