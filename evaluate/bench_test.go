package evaluate

import (
	"context"
	"testing"

	"github.com/ckpt-markov/markov/bench"
	"github.com/ckpt-markov/markov/scenario"
)

func benchEvaluate(b *testing.B, app, policy string) {
	tr := lanlSystem(b, 20)
	a, err := bench.Application(app, tr.NumNodes())
	if err != nil {
		b.Fatal(err)
	}
	begin, _ := tr.Window()
	seg := Segment{Start: begin + 2*365*day, Duration: 30 * day}
	pol, err := scenario.ParsePolicy(policy)
	if err != nil {
		b.Fatal(err)
	}
	s := &SegmentSettings{Policy: pol}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EvaluateSegment(context.Background(), tr, a, seg, s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateSegment evaluates one segment: estimate, model, sweep.
func BenchmarkEvaluateSegment(b *testing.B) {
	for _, tt := range []struct{ app, policy string }{
		{"qr", "greedy"}, {"md", "greedy"}, {"qr", "pb"}, {"qr", "ab"},
	} {
		b.Run(tt.app+"/"+tt.policy, func(b *testing.B) { benchEvaluate(b, tt.app, tt.policy) })
	}
}

// BenchmarkSimulate replays one 30-day segment of LANL system 20 with the
// QR benchmark on 512 nodes and a one-hour interval.
func BenchmarkSimulate(b *testing.B) {
	tr := lanlSystem(b, 20)
	app, err := bench.Application("qr", tr.NumNodes())
	if err != nil {
		b.Fatal(err)
	}
	sc, err := scenario.New(scenario.System{Processors: tr.NumNodes(), MTTF: 200 * day, MTTR: 3 * 3600}, app, scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		b.Fatal(err)
	}
	begin, _ := tr.Window()
	seg := Segment{Start: begin + 2*365*day, Duration: 30 * day}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Simulate(tr, sc, 3600, seg, nil); err != nil {
			b.Fatal(err)
		}
	}
}
