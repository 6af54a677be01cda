package intervals

import (
	"math"
	"testing"
)

var benchSink float64

func BenchmarkVolpexIntervalLambert(b *testing.B) {
	b.ReportAllocs()
	v := Volpex{Processes: 32, Replicas: 1, Rate: 1.0 / 28730, Save: 187}
	for b.Loop() {
		benchSink, _ = v.Interval()
	}
}

func BenchmarkVolpexIntervalRoot(b *testing.B) {
	b.ReportAllocs()
	v := Volpex{Processes: 32, Replicas: 2, Rate: 1.0 / 28730, Save: 212}
	for b.Loop() {
		benchSink, _ = v.IntervalRoot()
	}
}

func BenchmarkVolpexIntervalMinimize(b *testing.B) {
	b.ReportAllocs()
	v := Volpex{Processes: 32, Replicas: 2, Rate: 1.0 / 28730, Save: 212}
	for b.Loop() {
		benchSink, _ = v.IntervalMinimize()
	}
}

func BenchmarkBouguerraExponential(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s, _ := BouguerraExponential(1.0/86400, 7*86400, 600, 300)
		benchSink = s.Expected
	}
}

// Section 5.3 of Bouguerra et al.: Weibull β = 0.509, W = 2500 h.
func BenchmarkBouguerraSegmentsWeibull(b *testing.B) {
	b.ReportAllocs()
	law := Weibull{Rate: 1 / 20.584, Shape: 0.509}
	for b.Loop() {
		s, _ := BouguerraSegments(law, 2500, 10.0/60, 0, nil)
		benchSink = s.Expected
	}
}

func BenchmarkBouguerraIntervalWeibull(b *testing.B) {
	b.ReportAllocs()
	law := Weibull{Rate: 1 / 20.584, Shape: 0.509}
	for b.Loop() {
		benchSink, _ = BouguerraInterval(law, 10.0/60, 0)
	}
}

func BenchmarkSurvivalLawSegmentTime(b *testing.B) {
	b.ReportAllocs()
	law := SurvivalLaw{S: func(x float64) float64 { return math.Exp(-math.Pow(x/20.584, 0.509)) }}
	for b.Loop() {
		benchSink = law.SegmentTime(10)
	}
}

func BenchmarkBouguerraPlan(b *testing.B) {
	const w = 100 * 3600.0
	cost := func(s float64) float64 { return 60 + 1140*s/w }
	for _, bc := range []struct {
		name string
		law  closedLaw
	}{
		{"Exponential", Exponential{Rate: 1.0 / 20000}},
		{"Weibull", Weibull{Rate: 1.0 / 20000, Shape: 0.7}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, _ := BouguerraPlan(bc.law, w, cost, ConstantCost(30), &PlanSettings{Steps: 1000})
				benchSink = p.Expected
			}
		})
	}
}
