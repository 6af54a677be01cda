package intervals

import (
	"math"
	"testing"
)

// TestDependencyFactorPublished checks the builders against Fialho (2011).
func TestDependencyFactorPublished(t *testing.T) {
	// Table 3.3: master/worker with 8 processes, workers talk only to the
	// master: P(master) = 8, φ = 1; P(worker) = 2, φ = 0.25; global
	// φ = (8 + 7·2)/64 = 22/64 = 0.34375.
	g, err := MasterWorker(8)
	if err != nil {
		t.Fatal(err)
	}
	if g.P(0) != 8 || g.Phi(0) != 1 {
		t.Errorf("master: P = %d, φ = %v; want 8, 1", g.P(0), g.Phi(0))
	}
	for w := 1; w < 8; w++ {
		if g.P(w) != 2 || g.Phi(w) != 0.25 {
			t.Errorf("worker %d: P = %d, φ = %v; want 2, 0.25", w, g.P(w), g.Phi(w))
		}
	}
	if g.GlobalPhi() != 0.34375 {
		t.Errorf("global φ = %v, want 0.34375", g.GlobalPhi())
	}

	// Table 4.10: the synthetic application exchanges with its right and
	// lower neighbours on a wrapped grid (fig. 4.17); φ printed to four
	// decimals: 0.5556 (3×3), 0.3125 (4×4), 0.2000 (5×5), 0.1389 (6×6),
	// 0.0781 (8×8), 0.0500 (10×10).
	for _, tc := range []struct {
		side int
		phi  float64
	}{{3, 0.5556}, {4, 0.3125}, {5, 0.2000}, {6, 0.1389}, {8, 0.0781}, {10, 0.0500}} {
		g, _ := Grid2D(tc.side, tc.side, true)
		if got := g.GlobalPhi(); math.Abs(got-tc.phi) > 0.5e-4+1e-12 {
			t.Errorf("%d×%d torus: φ = %v, Table 4.10 %v", tc.side, tc.side, got, tc.phi)
		}
	}
}

// TestDependencyFactorPatterns checks counts derived by hand.
func TestDependencyFactorPatterns(t *testing.T) {
	// On a 2×2 torus the right and left neighbours coincide, as do the
	// upper and lower ones: two peers, P = 3, φ = 3/4. (Table 4.10 uses
	// φ = 1 for its 4-process run; the rule of eq. 3.17 gives 3/4.)
	g, _ := Grid2D(2, 2, true)
	if g.GlobalPhi() != 0.75 {
		t.Errorf("2×2 torus: φ = %v, want 0.75", g.GlobalPhi())
	}
	// Open 3×4 grid: corners have 2 neighbours, other border cells 3,
	// inner cells 4. 4 corners·3 + 6 edges·4 + 2 inner·5 = 46; φ = 46/144.
	g, _ = Grid2D(3, 4, false)
	if g.P(0) != 3 || g.P(1) != 4 || g.P(5) != 5 {
		t.Errorf("open 3×4 grid: P(corner)=%d P(edge)=%d P(inner)=%d, want 3, 4, 5", g.P(0), g.P(1), g.P(5))
	}
	if g.GlobalPhi() != 46.0/144 {
		t.Errorf("open 3×4 grid: φ = %v, want 46/144", g.GlobalPhi())
	}
	// Rings: P = 3 for n ≥ 3, 2 for n = 2, 1 for n = 1.
	for _, tc := range []struct{ n, p int }{{1, 1}, {2, 2}, {3, 3}, {10, 3}} {
		g, _ := Ring(tc.n)
		for i := range tc.n {
			if g.P(i) != tc.p {
				t.Errorf("ring of %d: P(%d) = %d, want %d", tc.n, i, g.P(i), tc.p)
			}
		}
		if want := float64(tc.p) / float64(tc.n); g.GlobalPhi() != want {
			t.Errorf("ring of %d: φ = %v, want %v", tc.n, g.GlobalPhi(), want)
		}
	}
	// Global φ is the mean of the individual ones (Fialho, section 3.3.2).
	g, _ = MasterWorker(13)
	var s float64
	for i := range g.Len() {
		s += g.Phi(i)
	}
	if math.Abs(s/13-g.GlobalPhi()) > 1e-15 {
		t.Errorf("mean of individual φ %v ≠ global %v", s/13, g.GlobalPhi())
	}
	// Duplicate and reverse messages do not add peers; self messages are
	// ignored.
	g, _ = NewCommGraph(3)
	for _, e := range [][2]int{{0, 1}, {1, 0}, {0, 1}, {2, 2}} {
		if err := g.Connect(e[0], e[1]); err != nil {
			t.Fatal(err)
		}
	}
	if g.P(0) != 2 || g.P(1) != 2 || g.P(2) != 1 {
		t.Errorf("P = %d, %d, %d; want 2, 2, 1", g.P(0), g.P(1), g.P(2))
	}
}

func TestCommGraphErrors(t *testing.T) {
	_, err := NewCommGraph(0)
	wantErr(t, "NewCommGraph(0)", err, "n")
	_, err = MasterWorker(-1)
	wantErr(t, "MasterWorker(-1)", err, "n")
	_, err = Ring(0)
	wantErr(t, "Ring(0)", err, "n")
	_, err = Grid2D(0, 3, true)
	wantErr(t, "Grid2D rows", err, "rows")
	_, err = Grid2D(3, -1, false)
	wantErr(t, "Grid2D cols", err, "cols")
	g, _ := NewCommGraph(3)
	wantErr(t, "Connect a", g.Connect(-1, 0), "a =")
	wantErr(t, "Connect b", g.Connect(0, 3), "b =")
}
