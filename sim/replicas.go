package sim

import (
	"errors"

	"github.com/ckpt-markov/markov/scenario"
)

// replicas is the replication state of a Timeline whose scenario has
// application.replicas = r > 1 (Volpex, seeds 000 and 002): each of the a
// logical processes runs as up to r replicas on distinct processors; a
// failure of a used processor interrupts the application only when it
// takes the last live replica of its process. At every checkpoint (a
// commit, or the end of a recovery) the dead replicas are replaced from
// the hot spares (functional unused processors, as the Rule picks them),
// starting from the checkpoint just written, at no cost (Rahman et al.,
// section IV, assumptions 1 and 2: a replica is recreated at the next
// checkpoint and detection and restart take no time); while spares are
// lacking they go one at a time to a process with the fewest live
// replicas (the lowest-numbered among equals), so that the counts of
// processes by live replicas after a checkpoint depend only on those
// counts before it (the state of package replication). An interruption restarts every
// process with r replicas by a recovery. A nil *replicas is r = 1.
type replicas struct {
	r     int
	group []int32 // process of each processor, −1 if unused
	alive []int   // live replicas of each process
}

func newReplicas(r, n int) *replicas {
	if r <= 1 {
		return nil
	}
	rp := &replicas{r: r, group: make([]int32, n), alive: make([]int, 0, n/r)}
	for i := range rp.group {
		rp.group[i] = -1
	}
	return rp
}

// checkReplicas rejects the decisions replication does not support yet:
// per-state intervals and reconfiguration at checkpoints.
func checkReplicas(sc *scenario.Scenario, d Decisions) error {
	if sc.Application.ReplicaCount() == 1 {
		return nil
	}
	if d.Intervals != nil || d.Reconfigure != nil || sc.Reconfigure == scenario.AtCheckpoint {
		return errors.New("sim: application.replicas > 1 supports neither per-state decisions nor reconfiguration at checkpoints")
	}
	return nil
}

// degree returns r (1 for nil).
func (rp *replicas) degree() int {
	if rp == nil {
		return 1
	}
	return rp.r
}

// assign gives the processors pick, a·r of them, to a processes, r each.
func (rp *replicas) assign(pick []int, a int) {
	if rp == nil {
		return
	}
	rp.alive = rp.alive[:0]
	for j := range a {
		for _, i := range pick[j*rp.r : (j+1)*rp.r] {
			rp.group[i] = int32(j)
		}
		rp.alive = append(rp.alive, rp.r)
	}
}

// lose records the failure of used processor i, unmarks it in used, and
// reports whether it was the last live replica of its process.
func (rp *replicas) lose(i int, used bitset) bool {
	g := rp.group[i]
	rp.group[i] = -1
	used.unset(i)
	rp.alive[g]--
	return rp.alive[g] == 0
}

// reset forgets every assignment (after an interruption).
func (rp *replicas) reset() {
	if rp == nil {
		return
	}
	for i := range rp.group {
		rp.group[i] = -1
	}
	rp.alive = rp.alive[:0]
}

// refill replaces dead replicas from the spares at a checkpoint (see
// replicas).
func (tl *Timeline) refill() {
	rp := tl.rep
	if rp == nil {
		return
	}
	missing := 0
	for _, k := range rp.alive {
		missing += rp.r - k
	}
	if missing == 0 {
		return
	}
	tl.upIDs = tl.up.appendMembers(tl.upIDs[:0])
	spares := tl.upIDs[:0]
	for _, i := range tl.upIDs {
		if !tl.used.has(i) {
			spares = append(spares, i)
		}
	}
	k := min(missing, len(spares))
	if k == 0 {
		return
	}
	tl.pickFrom(spares, k)
	for _, i := range tl.pick {
		g := 0
		for j, n := range rp.alive {
			if n < rp.alive[g] {
				g = j
			}
		}
		rp.group[i] = int32(g)
		rp.alive[g]++
	}
}
