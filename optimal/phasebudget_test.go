package optimal

import (
	"testing"

	"github.com/ckpt-markov/markov/batchchain"
)

// TestEventsPhaseCharge: eventsChain keeps a count's phase when the
// budget (eventsPhaseBudget) has the numbers the phase holds,
// (m + 1)·(3K_max + 3) with m = N − a (the lengths of its tables:
// batchchain TestPhaseNumbers), and not when it has one fewer: the
// charge is what is stored, neither less nor more. On the cases of
// chainCases, at the smallest, middle and largest count.
func TestEventsPhaseCharge(t *testing.T) {
	for _, c := range chainCases() {
		for _, a := range []int{1, c.n / 2, c.n} {
			want := (c.n - a + 1) * (3*len(c.sizes) + 3)
			for _, budget := range []int{want, want - 1} {
				m, _ := chainModel(t, c)
				ec := m.(*eventsChain)
				ec.phases = batchchain.NewBudget(int64(budget))
				ec.setInterval(3600)
				h := make([]float64, ec.states())
				never := func(int, float64) bool { return false }
				if _, err := ec.column(a, 0, h, never, true); err != nil {
					t.Fatal(err)
				}
				if kept := ec.cfg[a].ph != nil; kept != (budget >= want) {
					t.Errorf("%s a=%d: budget %d, phase kept %v; the phase holds %d numbers", c.name, a, budget, kept, want)
				}
			}
		}
	}
}
