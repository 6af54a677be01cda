package birthdeath

import (
	"math"

	"github.com/ckpt-markov/markov/expm"
	"gonum.org/v1/gonum/mat"
)

// vanLoanMaxRhoT is the largest ρt for which P_t is recovered from the
// top-left block e^{−ρt}P_t of the Van Loan exponential; the rescaling by
// e^{ρt} multiplies its absolute error by at most e. Beyond it P_t is taken
// from a second exponential, of G_m·t.
const vanLoanMaxRhoT = 1

// vanLoanDense computes P_t and Q_t(ρ) from
//
//	exp([[G − ρI, ρI], [0, 0]]·t) = [[e^{−ρt}P_t, Q_t], [0, I]].
func (c *Chain) vanLoanDense(t, rho float64, wantP, wantQ bool) (p, q *mat.Dense, err error) {
	n := c.m + 1
	g := c.Generator()
	needBlock := wantQ || (wantP && rho*t <= vanLoanMaxRhoT)
	var e mat.Dense
	if needBlock {
		blk := mat.NewDense(2*n, 2*n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				blk.Set(i, j, g.At(i, j)*t)
			}
			blk.Set(i, i, blk.At(i, i)-rho*t)
			blk.Set(i, n+i, rho*t)
		}
		if err := expm.Exp(&e, blk, nil); err != nil {
			return nil, nil, err
		}
	}
	if wantQ {
		q = mat.DenseCopyOf(e.Slice(0, n, n, 2*n))
	}
	if wantP {
		if needBlock && rho*t <= vanLoanMaxRhoT {
			p = mat.DenseCopyOf(e.Slice(0, n, 0, n))
			p.Scale(math.Exp(rho*t), p)
		} else {
			p = &mat.Dense{}
			g.Scale(t, g)
			if err := expm.Exp(p, g, nil); err != nil {
				return nil, nil, err
			}
		}
	}
	if (p != nil && !allFinite(p)) || (q != nil && !allFinite(q)) {
		return nil, nil, errNonFinite
	}
	return p, q, nil
}
