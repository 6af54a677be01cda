package optimal

import (
	"fmt"
	"slices"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
)

// Table returns the policy's actions in the decision states X(p, n) as a
// decision table (reschedule.Table): one row per checkpoint count p the
// states keep (one row when the recovery cost does not depend on p), the
// default row being the row most counts share (ties: the smallest p).
// Outside the window, a row's action is that of the nearest count inside
// it, capped at n, as in Vector. With reconfiguration at checkpoints, the
// table reconfigures in U(a, s) onto its action in X(a, a + s) when that
// is not 0 or a (scenario.Reconfigure.TargetOf); Table returns an error
// when an up state reached does otherwise, and when the default row never
// runs.
func (pol *Policy) Table() (*reschedule.Table, error) {
	t, err := pol.RecoveryTable()
	if err != nil {
		return nil, err
	}
	if err := pol.checkTableReconf(t); err != nil {
		return nil, err
	}
	return t, nil
}

// RecoveryTable returns the actions in the decision states X as a table,
// as Table does, but without checking the up states' reconfigurations at
// checkpoints: with Reconfigure (SegmentReconfigure for a simulator) it
// describes every policy of the solver, as Recovery does for the policies
// whose actions do not depend on p.
func (pol *Policy) RecoveryTable() (*reschedule.Table, error) {
	sv := pol.sv
	n := sv.sc.N()
	lo, hi := sv.Window()
	ps := []int{0}
	if sv.sc.Application.Recovery.DependsOnOld() {
		ps = sv.Candidates()
	}
	rows := make([]reschedule.Vector, len(ps))
	for i, p := range ps {
		r := make(reschedule.Vector, n)
		for k := 1; k <= n; k++ {
			r[k-1] = min(pol.Action(p, min(max(k, lo), hi)), k)
		}
		rows[i] = r
	}
	// The default row: the one most rows equal (the first on ties).
	def, best := 0, 0
	for i := range rows {
		same := 0
		for j := range rows {
			if slices.Equal(rows[i], rows[j]) {
				same++
			}
		}
		if same > best {
			def, best = i, same
		}
	}
	var others []reschedule.Vector
	var olds []int
	if ps[0] != 0 {
		for i, p := range ps {
			if i != def {
				olds, others = append(olds, p), append(others, rows[i])
			}
		}
	}
	t, err := reschedule.NewTableRows(rows[def], olds, others)
	if err != nil {
		return nil, fmt.Errorf("optimal: %w", err)
	}
	return t, nil
}

// checkTableReconf checks, with reconfiguration at checkpoints, that every
// up state U(a, s) of a count a the table runs on does what the table
// says (scenario.Reconfigure.TargetOf); the up states of other counts are
// never reached.
func (pol *Policy) checkTableReconf(t *reschedule.Table) error {
	sv := pol.sv
	if sv.sc.Reconfigure != scenario.AtCheckpoint {
		return nil
	}
	lo, hi := sv.Window()
	n := sv.sc.N()
	used := make([]bool, n+1)
	ps := append([]int{0}, t.Olds()...)
	for _, p := range ps {
		for k := max(lo, 1); k <= hi; k++ {
			used[t.Action(p, k)] = true
		}
	}
	for _, a := range sv.Candidates() {
		if !used[a] {
			continue
		}
		for s := max(0, lo-a); s <= min(n-a, hi-a); s++ {
			want := scenario.AtCheckpoint.TargetOf(t, a, a+s)
			if want == a {
				want = 0
			}
			if got := pol.Reconfigure(a, s); got != want {
				return fmt.Errorf("optimal: with reconfiguration at checkpoints the policy does %d in U(%d, %d) where its decision table says %d (0: run on): it is not a decision table", got, a, s, want)
			}
		}
	}
	return nil
}

// TableScenario returns the scenario of the solution's policy as Scenario
// does, but with the policy resolved to its decision table when its
// actions depend on the checkpoint count p (Policy.Table,
// scenario.Policy.ResolvedTable): the scenario every model and simulator
// of the toolkit replays through scenario.Scenario.Rule.
func (s *Solution) TableScenario() (*scenario.Scenario, error) {
	t, err := s.DecisionTable()
	if err != nil {
		return nil, err
	}
	base := s.sc
	sc, err := scenario.New(base.System, base.Application, scenario.Policy{Kind: scenario.Optimal}.ResolvedTable(t))
	if err != nil {
		return nil, err
	}
	sc.Reconfigure = base.Reconfigure
	return sc, nil
}
