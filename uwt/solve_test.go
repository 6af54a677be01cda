package uwt

import (
	"context"
	"reflect"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

// TestSolve: Model.Solve gives the states and the stationary law that
// Evaluate reaches (bit for bit: the same solve on the same window),
// with and without failure events, one recovery class included, and
// refuses the exact path.
func TestSolve(t *testing.T) {
	ctx := context.Background()
	scs := batchScenarios(t)
	for name, sc := range testScenarios(t) {
		scs["single/"+name] = sc
	}
	scs["one class"] = mustScenario(t, scenario.System{Processors: 128, MTTF: 100 * 86400, MTTR: 3600}, constApp(128, 1, 100, 50, 40), scenario.Policy{Kind: scenario.Moldable, Processors: 100})
	compared, oneClass := 0, false
	for name, sc := range scs {
		if sc.Reconfigure == scenario.AtCheckpoint {
			continue
		}
		m, err := New(ctx, sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.Evaluate(ctx, 1800)
		if err != nil {
			t.Fatal(err)
		}
		if !want.Phases {
			continue
		}
		fresh, err := New(ctx, sc, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := fresh.Solve(ctx)
		if err != nil {
			t.Fatal(err)
		}
		compared++
		oneClass = oneClass || got.OneClass
		if !got.Phases || !reflect.DeepEqual(got.Inspect(), want.Inspect()) || got.Dropped != want.Dropped {
			t.Errorf("%s: Solve's chain differs from Evaluate's", name)
		}
	}
	if compared < 4 || !oneClass {
		t.Errorf("%d chains of up phases compared, one class %v", compared, oneClass)
	}
	exact, err := New(ctx, scs["one class"], &Settings{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exact.Solve(ctx); err == nil {
		t.Error("Solve on the exact path: no error")
	}
}
