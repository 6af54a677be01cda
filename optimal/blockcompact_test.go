package optimal

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBlockCompactMatchesFull holds the block of up states factorised
// over the running states only (blockAt: idx, pos) against the matrix
// it replaced, I − S with the identity in the rows and columns of the
// reconfiguring states, factorised by gonum's mat.LU: on every block with
// reconfiguring and running states of the level-2 and level-4 policies
// of every scenario with reconfiguration of the package's tests, the
// transposed and plain solves (throughUp's and evalUp's) with seeded
// random right-hand sides on the running states agree to 1e-13 relative
// to the largest entry. Power: the compact solution read against the
// full one with the running states' places shifted by one (a wrong idx;
// a reconfiguring state's place for a block with one running state)
// differs beyond 1e-9 on some block, in -short mode too.
func TestBlockCompactMatchesFull(t *testing.T) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(10, 20))
	blocks, wrong := 0, 0
	for _, c := range reconfCases(t) {
		t.Run(c.name, func(t *testing.T) {
			sv, s, ps := levelsTwoFour(t, c.sc, c.set)
			for _, pol := range []*Policy{s.Policy, ps.Policy} {
				v, err := sv.evaluate(ctx, pol, false)
				if err != nil {
					t.Fatal(err)
				}
				for b, blk := range v.blocks {
					k, kr := len(blk.rows), len(blk.idx)
					if kr == 0 || kr == k {
						continue
					}
					blocks++
					full := func() *mat.LU {
						a := mat.NewDense(k, k, nil)
						for i, r := range blk.rows {
							a.Set(i, i, 1)
							if blk.reconfigures(i) {
								continue
							}
							for _, e := range r.up {
								if !blk.reconfigures(int(e.i)) {
									a.Set(i, int(e.i), a.At(i, int(e.i))-e.p)
								}
							}
						}
						var lu mat.LU
						lu.Factorize(a)
						return &lu
					}
					for _, trans := range []bool{true, false} {
						rhs, rc := mat.NewVecDense(k, nil), make([]float64, kr)
						for j, i := range blk.idx {
							rc[j] = rnd.Float64()
							rhs.SetVec(i, rc[j])
						}
						got, err := blk.lu.solve(rc, trans)
						if err != nil {
							t.Fatal(err)
						}
						var want mat.VecDense
						if err := full().SolveVecTo(&want, trans, rhs); err != nil {
							t.Fatal(err)
						}
						// The wrong place of running state j: the next
						// running state's, or with one running state a
						// reconfiguring one's (the full solution is 0
						// there).
						shifted := func(j int) int {
							if kr > 1 {
								return blk.idx[(j+1)%kr]
							}
							for i := range k {
								if blk.reconfigures(i) {
									return i
								}
							}
							panic("a block with kr < k and no reconfiguring state")
						}
						scale, diff, off := 0.0, 0.0, 0.0
						for j, i := range blk.idx {
							scale = max(scale, math.Abs(want.AtVec(i)))
							diff = max(diff, math.Abs(got[j]-want.AtVec(i)))
							off = max(off, math.Abs(got[j]-want.AtVec(shifted(j))))
						}
						if diff > 1e-13*scale {
							t.Errorf("U(%d, ·), transposed %v: compact solve off by %.3g (largest entry %.3g)", sv.acts[b], trans, diff, scale)
						}
						if off > 1e-9*scale {
							wrong++
						}
					}
				}
			}
		})
	}
	if blocks == 0 || wrong == 0 {
		t.Errorf("%d blocks compared, %d solves told apart from a shifted idx: the test cannot fail", blocks, wrong)
	}
	t.Logf("%d blocks with running and reconfiguring up states; %d solves told apart from a shifted idx", blocks, wrong)
}
