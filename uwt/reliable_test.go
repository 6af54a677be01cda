package uwt

import (
	"context"
	"testing"

	"github.com/ckpt-markov/markov/sim"
)

// TestEventsReliableMatchesSimulation: the ev.json (evScenario,
// 32 processors) at MTTF 25 y, where the up phases' counts take
// batchchain's dense path (a = 29, 30, 31: Λ/ρ_min 3.2e4, 2.0e4, 9.9e3),
// against the simulator at I = 6 h within its 99 % interval (seeded,
// RelTol 0.002). Power: the model at MTTF 1 y and the failure-free
// ω(N)·(I + L − C)/(I + L) fall outside that interval.
func TestEventsReliableMatchesSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation cross-check skipped in -short mode")
	}
	const year = 365 * 86400.0
	const interval = 6 * 3600.0
	sc := evScenario(t, 25*year)
	model := evaluate(t, sc, nil, interval)
	res, err := sim.Run(context.Background(), sc, interval, &sim.Settings{Seed: 25, RelTol: 0.002, Confidence: 0.99})
	if err != nil {
		t.Fatal(err)
	}
	if !res.UWT.Contains(model.UWT) {
		t.Errorf("model UWT %.8g outside the simulation's %.8g ± %.3g", model.UWT, res.UWT.Mean, res.UWT.HalfWidth)
	}
	app, n := sc.Application, sc.System.Processors
	naive := app.WorkRate[n-1] * (interval + app.Latency[n-1] - app.Overhead[n-1]) / (interval + app.Latency[n-1])
	other := evaluate(t, evScenario(t, year), nil, interval)
	for _, w := range []struct {
		name string
		uwt  float64
	}{{"failure-free on N", naive}, {"the model at MTTF 1 y", other.UWT}} {
		if res.UWT.Contains(w.uwt) {
			t.Errorf("%s (%.8g) inside the simulation's %.8g ± %.3g: the test cannot tell it apart", w.name, w.uwt, res.UWT.Mean, res.UWT.HalfWidth)
		}
	}
	t.Logf("model %.8g, sim %.8g ± %.2g, 1 y %.8g, naive %.8g", model.UWT, res.UWT.Mean, res.UWT.HalfWidth, other.UWT, naive)
}
