package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/ckpt-markov/markov/internal/cputime"
	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// scaleRow is one row of the table of the scale issue ("Scale II:
// volatile systems and a million processors in every regime"), with the
// QR-like costs of testmodel.QRLike.
type scaleRow struct {
	name       string
	n          int
	mttf, mttr float64
	policy     func(n int) scenario.Policy
}

func greedy(int) scenario.Policy { return scenario.Policy{} }

func moldable(a int) func(int) scenario.Policy {
	return func(int) scenario.Policy { return scenario.Policy{Kind: scenario.Moldable, Processors: a} }
}

func moldableHalf(n int) scenario.Policy {
	return scenario.Policy{Kind: scenario.Moldable, Processors: n / 2}
}

// powerOfTwo is the vector r(k) = the largest power of two ≤ k: a
// policy with many spares, as for PB on a fast-saturating speed-up.
func powerOfTwo(n int) scenario.Policy {
	v := make([]int, n)
	p := 1
	for k := 1; k <= n; k++ {
		if 2*p <= k {
			p *= 2
		}
		v[k-1] = p
	}
	return scenario.Policy{Kind: scenario.Explicit, Explicit: v}
}

const desktopMTTF, desktopMTTR = 8 * 3600.0, 4 * 3600.0

var scaleRows = []scaleRow{
	{"desktop/greedy/N=1024", 1024, desktopMTTF, desktopMTTR, greedy},
	{"desktop/greedy/N=4096", 4096, desktopMTTF, desktopMTTR, greedy},
	{"desktop/moldable16/N=16384", 16384, desktopMTTF, desktopMTTR, moldable(16)},
	{"desktop/moldable16/N=65536", 65536, desktopMTTF, desktopMTTR, moldable(16)},
	{"desktop/moldable16/N=1000000", 1_000_000, desktopMTTF, desktopMTTR, moldable(16)},
	{"desktop/greedy/N=1000000", 1_000_000, desktopMTTF, desktopMTTR, greedy},
	{"MTTF=100d/greedy/N=1000000", 1_000_000, 100 * day, 3600, greedy},
	{"MTTF=25y/moldableHalf/N=1000000", 1_000_000, 25 * year, 3600, moldableHalf},
	{"MTTF=25y/powerOfTwo/N=1000000", 1_000_000, 25 * year, 3600, powerOfTwo},
}

func (r scaleRow) scenario(b *testing.B) *scenario.Scenario {
	sc, err := scenario.New(scenario.System{Processors: r.n, MTTF: r.mttf, MTTR: r.mttr},
		testmodel.QRLike(r.n), r.policy(r.n))
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

func (r scaleRow) skip(b *testing.B) {
	if r.n >= 1_000_000 && testing.Short() {
		b.Skip("a million processors: not with -short")
	}
}

// BenchmarkScale measures a full interval search (model build included)
// for every row of the scale issue's table. Besides the Go benchmark's
// wall time it reports the process CPU time per search (cpu_s, which
// includes the garbage collector's), since the machine is shared.
//
//	go test ./bench -run XXX -bench BenchmarkScale -benchmem -count 5
func BenchmarkScale(b *testing.B) {
	for _, row := range scaleRows {
		b.Run(row.name, func(b *testing.B) {
			row.skip(b)
			sc := row.scenario(b)
			b.ReportAllocs()
			var opt uwt.Optimum
			cpu0 := cputime.Used()
			for b.Loop() {
				m, err := uwt.New(context.Background(), sc, nil)
				if err != nil {
					b.Fatal(err)
				}
				if opt, err = m.Optimize(context.Background(), nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Used()-cpu0).Seconds()/float64(b.N), "cpu_s")
			b.ReportMetric(opt.Interval, "I*_s")
			b.ReportMetric(float64(opt.Result.States), "states")
			b.ReportMetric(float64(opt.Transitions), "transitions")
			b.ReportMetric(float64(opt.Evaluations), "evals")
			reportPeakHeap(b)
		})
	}
}

// BenchmarkScaleCLIJSON measures reading a scenario of 4·10⁶ processors
// given as JSON number lists (work rate, latency, overhead and recovery:
// four lists of 4·10⁶ numbers, ≈ 90 MB), as the CLI's --scenario does,
// and the search that follows, so that the share of parsing shows.
func BenchmarkScaleCLIJSON(b *testing.B) {
	const n = 4_000_000
	if testing.Short() {
		b.Skip("4·10⁶ processors: not with -short")
	}
	var data []byte
	encode := sync.OnceValue(func() error {
		// Built on first use, so that a -bench pattern selecting neither
		// sub-benchmark does not pay for it.
		app := testmodel.QRLike(n)
		rec := make([]float64, n)
		for a := 1; a <= n; a++ {
			rec[a-1] = app.Recovery.Cost(a, a)
		}
		doc := map[string]any{
			"system": map[string]any{"processors": n, "mttf": "25y", "mttr": "1h"},
			"application": map[string]any{
				"work_rate": app.WorkRate, "checkpoint_latency": app.Latency,
				"checkpoint_overhead": app.Overhead, "recovery": rec,
			},
			"policy": "greedy",
		}
		var err error
		data, err = json.Marshal(doc)
		return err
	})
	var sc *scenario.Scenario
	var err error
	b.Run(fmt.Sprintf("parse/N=%d", n), func(b *testing.B) {
		if err := encode(); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		cpu0 := cputime.Used()
		for b.Loop() {
			if sc, err = scenario.Parse(bytes.NewReader(data), nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric((cputime.Used()-cpu0).Seconds()/float64(b.N), "cpu_s")
	})
	// The same processor count in parametric forms (docs/scenario.md):
	// QR-like costs, ω(a) = a/(1 + a/2000) written as Amdahl's law with
	// rate 1 and serial fraction 1/2000 (not the same curve: a/(1 +
	// (a − 1)/2000)), so only the parse is compared, not the search.
	forms := []byte(fmt.Sprintf(`{"system": {"processors": %d, "mttf": "25y", "mttr": "1h"},
		"application": {"work_rate": {"amdahl": {"rate": 1, "serial": 0.0005}},
			"checkpoint_latency": {"constant": 99.19}, "recovery": {"constant": 17.21}},
		"policy": "greedy"}`, n))
	b.Run(fmt.Sprintf("parse-forms/N=%d", n), func(b *testing.B) {
		b.ReportAllocs()
		cpu0 := cputime.Used()
		for b.Loop() {
			if _, err := scenario.Parse(bytes.NewReader(forms), nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric((cputime.Used()-cpu0).Seconds()/float64(b.N), "cpu_s")
	})
	b.Run(fmt.Sprintf("optimize/N=%d", n), func(b *testing.B) {
		if err := encode(); err != nil {
			b.Fatal(err)
		}
		if sc == nil {
			if sc, err = scenario.Parse(bytes.NewReader(data), nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportAllocs()
		cpu0 := cputime.Used()
		for b.Loop() {
			m, err := uwt.New(context.Background(), sc, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := m.Optimize(context.Background(), nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric((cputime.Used()-cpu0).Seconds()/float64(b.N), "cpu_s")
	})
}
