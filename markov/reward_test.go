package markov

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/ckpt-markov/markov/internal/testmodel"
)

// TestRenewalRewardAlternating: an alternating renewal process (up periods
// of mean u, down periods of mean d) has the periodic jump chain up ↔ down,
// π = (1/2, 1/2), and availability u/(u + d) (renewal–reward theorem with
// an up–down cycle; Ross 1996, ch. 3).
func TestRenewalRewardAlternating(t *testing.T) {
	b := NewBuilder[string]()
	b.Add("up", "down", 1)
	b.Add("down", "up", 1)
	c, err := b.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Stationary(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ up, down float64 }{{3600, 600}, {1, 1}, {1e6, 1e-3}} {
		got, err := RenewalReward(res.Pi, []float64{tc.up, 0}, []float64{tc.up, tc.down})
		if err != nil {
			t.Fatal(err)
		}
		if want := tc.up / (tc.up + tc.down); math.Abs(got-want) > 1e-15*want {
			t.Errorf("up %v down %v: availability %.17g, want %.17g", tc.up, tc.down, got, want)
		}
	}
}

// TestRenewalRewardOneProcessor is the exact oracle of the checkpoint model
// with one processor (docs/model.md §7): states U, R, D with
//
//	U → U  e_U = exp(−λ(I+L)),  U → D  1 − e_U,
//	R → U  e_R = exp(−λ(R+L)),  R → D  1 − e_R,   D → R  1,
//
// sojourns τ_U = (1−e_U)/λ, τ_R = (1−e_R)/λ, τ_D = 1/θ and useful time
// u_U = e_U·(I + L − C). Solving the three balance equations by hand gives
//
//	A = λθ/(λ+θ) · (I + L − C) · e^{−λ(I+2L+R)} / (1 − e^{−λ(I+L)}).
//
// (package testmodel; its example value A = 0.69164 for λ = 1/3600,
// θ = 1/600, I = 600, L = C = 60.6, R = 30 is the published one.)
func TestRenewalRewardOneProcessor(t *testing.T) {
	for _, tc := range []struct {
		lambda, theta, I, L, C, R float64
		published                 float64 // 0 when none
	}{
		{1.0 / 3600, 1.0 / 600, 600, 60.6, 60.6, 30, 0.69164},
		{1e-6, 1e-3, 3600, 100, 50, 300, 0},
		{1.0 / 60, 1.0 / 6000, 30, 10, 10, 10, 0},
	} {
		eU := math.Exp(-tc.lambda * (tc.I + tc.L))
		eR := math.Exp(-tc.lambda * (tc.R + tc.L))
		b := NewBuilder[string]()
		b.Add("U", "U", eU)
		b.Add("U", "D", -math.Expm1(-tc.lambda*(tc.I+tc.L)))
		b.Add("R", "U", eR)
		b.Add("R", "D", -math.Expm1(-tc.lambda*(tc.R+tc.L)))
		b.Add("D", "R", 1)
		c, err := b.Build(nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Stationary(nil)
		if err != nil {
			t.Fatal(err)
		}
		iU, _ := c.Index("U")
		iR, _ := c.Index("R")
		iD, _ := c.Index("D")
		tau := make([]float64, 3)
		useful := make([]float64, 3)
		tau[iU] = -math.Expm1(-tc.lambda*(tc.I+tc.L)) / tc.lambda
		tau[iR] = -math.Expm1(-tc.lambda*(tc.R+tc.L)) / tc.lambda
		tau[iD] = 1 / tc.theta
		useful[iU] = eU * (tc.I + tc.L - tc.C)
		got, err := RenewalReward(res.Pi, useful, tau)
		if err != nil {
			t.Fatal(err)
		}
		want := testmodel.OneProcessorAvailability(tc.lambda, tc.theta, tc.I, tc.L, tc.C, tc.R)
		if math.Abs(got-want) > 1e-13*want {
			t.Errorf("%+v: A = %.15g, closed form %.15g", tc, got, want)
		}
		// The published value has 5 significant digits.
		if tc.published != 0 && math.Abs(got-tc.published) > 0.5e-5 {
			t.Errorf("%+v: A = %.6g, published %v", tc, got, tc.published)
		}
	}
}

// TestRenewalRewardCTMC: a continuous-time chain with generator Q is a
// semi-Markov process with jump chain p_ij = q_ij/q_i and mean sojourns
// 1/q_i, so the long-run fraction of time in state j, RenewalReward with
// reward τ_j at j only, must equal p_j from pQ = 0 (solved here by LU).
func TestRenewalRewardCTMC(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	const n = 12
	q := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		var out float64
		for j := 0; j < n; j++ {
			if j != i && (j == (i+1)%n || rng.Float64() < 0.4) {
				r := rng.ExpFloat64() * math.Pow(10, 3*rng.Float64()-1.5) // rates over 3 decades
				q.Set(i, j, r)
				out += r
			}
		}
		q.Set(i, i, -out)
	}
	// pQ = 0, Σp = 1: Qᵀp = 0 with the last equation replaced.
	a := mat.DenseCopyOf(q.T())
	for j := 0; j < n; j++ {
		a.Set(n-1, j, 1)
	}
	rhs := mat.NewVecDense(n, nil)
	rhs.SetVec(n-1, 1)
	var p mat.VecDense
	if err := p.SolveVec(a, rhs); err != nil {
		t.Fatal(err)
	}

	tr := &triplets{n: n}
	tau := make([]float64, n)
	for i := 0; i < n; i++ {
		qi := -q.At(i, i)
		tau[i] = 1 / qi
		for j := 0; j < n; j++ {
			if j != i && q.At(i, j) > 0 {
				tr.add(i, j, q.At(i, j)/qi)
			}
		}
	}
	res, err := tr.build(t, nil).Stationary(nil)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < n; j++ {
		w := make([]float64, n)
		w[j] = tau[j]
		got, err := RenewalReward(res.Pi, w, tau)
		if err != nil {
			t.Fatal(err)
		}
		// Rates over 3 decades; both solves are backward stable: 1e-12
		// relative leaves room for the conditioning of Q.
		if math.Abs(got-p.AtVec(j)) > 1e-12*p.AtVec(j) {
			t.Errorf("state %d: time fraction %.15g, CTMC %.15g", j, got, p.AtVec(j))
		}
	}
}

// TestRenewalRewardCompensated: with rewards 1e16, 1, −1e16 at equal
// weights, the products ±1e16/3 are exact negatives and the exact ratio is
// 1/3; a naive left-to-right sum returns 0.5 (the ulp of 3.3e15 is 0.5).
func TestRenewalRewardCompensated(t *testing.T) {
	third := 1.0 / 3
	got, err := RenewalReward([]float64{third, third, third}, []float64{1e16, 1, -1e16}, []float64{1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := third / neumaierSum([]float64{third, third, third}); math.Abs(got-want) > 1e-16 {
		t.Errorf("got %.17g, want %.17g", got, want)
	}
}

func TestRenewalRewardErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name             string
		pi, reward, time []float64
		want             string
	}{
		{"length reward", []float64{1}, []float64{1, 2}, []float64{1}, "len(reward) = 2"},
		{"length time", []float64{1}, []float64{1}, nil, "len(time) = 0"},
		{"empty", nil, nil, nil, "no states"},
		{"NaN pi", []float64{nan}, []float64{1}, []float64{1}, "pi[0]"},
		{"negative pi", []float64{0.5, -0.5}, []float64{1, 1}, []float64{1, 1}, "pi[1] = -0.5"},
		{"Inf reward", []float64{1}, []float64{inf}, []float64{1}, "reward[0]"},
		{"negative time", []float64{1}, []float64{1}, []float64{-1}, "time[0] = -1"},
		{"Inf time", []float64{1}, []float64{1}, []float64{inf}, "time[0]"},
		{"zero time", []float64{0.5, 0.5}, []float64{1, 1}, []float64{0, 0}, "Σ pi·time = 0"},
		{"zero pi", []float64{0, 0}, []float64{1, 1}, []float64{1, 1}, "Σ pi·time = 0"},
		{"overflow", []float64{1}, []float64{1e300}, []float64{1e-300}, "overflows"},
	} {
		_, err := RenewalReward(tc.pi, tc.reward, tc.time)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
}
