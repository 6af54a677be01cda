package trace

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// benchTrace is a LANL-sized synthetic trace: 1024 nodes over 3 years,
// MTTF 300 days, MTTR 3 h (the order of systems 18 and 19), ~3700 outages.
func benchTrace(b *testing.B) *Trace {
	b.Helper()
	const day = 86400.0
	return alternating(rand.New(rand.NewPCG(1, 1)), 1024, 1/(300*day), 1/(3*3600.0), 3*365*day)
}

func BenchmarkNextEvent(b *testing.B) {
	tr := benchTrace(b)
	_, end := tr.Window()
	rng := rand.New(rand.NewPCG(2, 2))
	b.ReportAllocs()
	for b.Loop() {
		tr.NextEvent(rng.IntN(1024), end*rng.Float64())
	}
}

func BenchmarkFunctional(b *testing.B) {
	tr := benchTrace(b)
	_, end := tr.Window()
	rng := rand.New(rand.NewPCG(3, 3))
	b.ReportAllocs()
	for b.Loop() {
		tr.Functional(end * rng.Float64())
	}
}

func BenchmarkEstimateRates(b *testing.B) {
	tr := benchTrace(b)
	_, end := tr.Window()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EstimateRates(tr, end, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadGeneric(b *testing.B) {
	var buf bytes.Buffer
	if err := WriteGeneric(&buf, benchTrace(b)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadGeneric(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEstimateEvents: events, sizes and the Weibull fit of the
// LANL-sized trace (about 3700 failures, 4700 up periods).
func BenchmarkEstimateEvents(b *testing.B) {
	tr := benchTrace(b)
	_, end := tr.Window()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EstimateEvents(tr, end, &EventSettings{Resolution: 60}); err != nil {
			b.Fatal(err)
		}
	}
}
