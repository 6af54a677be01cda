package intervals

import (
	"fmt"
)

// CommGraph records which processes of a parallel application communicate,
// to compute Fialho's inter-process dependency factor (Fialho 2011,
// section 3.3.2). Communication is symmetric: if a sends to b, a failure of
// either makes the other wait, so a and b are peers.
//
// The zero value is an empty graph with no processes; use NewCommGraph.
type CommGraph struct {
	peers []map[int]struct{}
}

// NewCommGraph returns a graph of n ≥ 1 processes, numbered 0 … n−1, with
// no communication.
func NewCommGraph(n int) (*CommGraph, error) {
	if n < 1 {
		return nil, fmt.Errorf("intervals: NewCommGraph: n = %d, want ≥ 1", n)
	}
	g := &CommGraph{peers: make([]map[int]struct{}, n)}
	for i := range g.peers {
		g.peers[i] = make(map[int]struct{})
	}
	return g, nil
}

// Len returns the number of processes N.
func (g *CommGraph) Len() int { return len(g.peers) }

// Connect records communication between processes a and b. Self
// communication (a = b) is ignored: a process always counts itself.
func (g *CommGraph) Connect(a, b int) error {
	n := len(g.peers)
	if a < 0 || a >= n {
		return fmt.Errorf("intervals: CommGraph.Connect: a = %d, want in [0, %d)", a, n)
	}
	if b < 0 || b >= n {
		return fmt.Errorf("intervals: CommGraph.Connect: b = %d, want in [0, %d)", b, n)
	}
	if a != b {
		g.peers[a][b] = struct{}{}
		g.peers[b][a] = struct{}{}
	}
	return nil
}

// P returns P(i): the number of distinct processes that communicate with
// process i, plus one for i itself (Fialho, eq. 3.17). It panics if i is
// out of range.
func (g *CommGraph) P(i int) int { return len(g.peers[i]) + 1 }

// Phi returns the individual dependency factor φ_i = P(i)/N (Fialho,
// eq. 3.18). It panics if i is out of range.
func (g *CommGraph) Phi(i int) float64 { return float64(g.P(i)) / float64(len(g.peers)) }

// GlobalPhi returns the global dependency factor φ = Σ_i P(i)/N² (Fialho,
// eq. 3.17), the mean of the individual factors.
func (g *CommGraph) GlobalPhi() float64 {
	n := len(g.peers)
	var s int
	for i := range n {
		s += g.P(i)
	}
	return float64(s) / float64(n*n)
}

// MasterWorker returns the pattern of n ≥ 1 processes where process 0 is
// the master and workers 1 … n−1 talk only to the master (Fialho, table
// 3.3).
func MasterWorker(n int) (*CommGraph, error) {
	g, err := NewCommGraph(n)
	if err != nil {
		return nil, fmt.Errorf("intervals: MasterWorker: n = %d, want ≥ 1", n)
	}
	for w := 1; w < n; w++ {
		g.mustConnect(0, w)
	}
	return g, nil
}

// Grid2D returns the pattern of rows×cols processes, numbered row-major,
// where each process exchanges messages with its right and lower
// neighbours (hence talks to up to four neighbours). With periodic true the
// grid wraps around in both directions (a torus), as in the synthetic
// application of Fialho's table 4.10; otherwise border processes have fewer
// neighbours.
func Grid2D(rows, cols int, periodic bool) (*CommGraph, error) {
	if rows < 1 {
		return nil, fmt.Errorf("intervals: Grid2D: rows = %d, want ≥ 1", rows)
	}
	if cols < 1 {
		return nil, fmt.Errorf("intervals: Grid2D: cols = %d, want ≥ 1", cols)
	}
	g, _ := NewCommGraph(rows * cols)
	id := func(r, c int) int { return r*cols + c }
	for r := range rows {
		for c := range cols {
			if c+1 < cols {
				g.mustConnect(id(r, c), id(r, c+1))
			} else if periodic {
				g.mustConnect(id(r, c), id(r, 0))
			}
			if r+1 < rows {
				g.mustConnect(id(r, c), id(r+1, c))
			} else if periodic {
				g.mustConnect(id(r, c), id(0, c))
			}
		}
	}
	return g, nil
}

// Ring returns the pattern of n ≥ 1 processes where process i exchanges
// messages with i−1 and i+1 (mod n).
func Ring(n int) (*CommGraph, error) {
	g, err := NewCommGraph(n)
	if err != nil {
		return nil, fmt.Errorf("intervals: Ring: n = %d, want ≥ 1", n)
	}
	for i := range n {
		g.mustConnect(i, (i+1)%n)
	}
	return g, nil
}

// mustConnect connects in-range processes of a builder.
func (g *CommGraph) mustConnect(a, b int) {
	if err := g.Connect(a, b); err != nil {
		panic(err)
	}
}
