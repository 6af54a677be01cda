package intervals

import (
	"math"
	"math/rand/v2"
	"testing"
)

// enumerateMNFTI computes MNFTI^ah by exact recursion over the absorbing
// chain whose state counts the groups by number of live replicas (c[k]
// groups with k live, k = 1 … g): a failure strikes one of the g·b
// processors uniformly; striking a dead one changes nothing, striking the
// last live replica of a group interrupts. It shares nothing with the
// closed form but the model.
func enumerateMNFTI(b, g int) float64 {
	memo := map[[8]int]float64{}
	var e func(c [8]int) float64
	e = func(c [8]int) float64 {
		if v, ok := memo[c]; ok {
			return v
		}
		n := float64(g * b)
		live := 0
		for k := 1; k <= g; k++ {
			live += k * c[k]
		}
		// E = 1 + (dead/n)·E + Σ_{k≥2} (k·c_k/n)·E(next_k)  (k = 1 absorbs)
		sum := 1.0
		for k := 2; k <= g; k++ {
			if c[k] == 0 {
				continue
			}
			next := c
			next[k]--
			next[k-1]++
			sum += float64(k*c[k]) / n * e(next)
		}
		v := sum / (float64(live) / n)
		memo[c] = v
		return v
	}
	var c0 [8]int
	c0[g] = b
	return e(c0)
}

func TestReplicationMNFTIEnumeration(t *testing.T) {
	for g := 1; g <= 5; g++ {
		for b := 1; b <= 12; b++ {
			want := enumerateMNFTI(b, g)
			got, err := Replication{Processes: b, Replicas: g, Rate: 1}.MNFTI()
			if err != nil {
				t.Fatal(err)
			}
			if d := relDiff(got, want); d > 1e-12 {
				t.Errorf("b=%d g=%d: MNFTI %.15g, enumeration %.15g (rel %.2g)", b, g, got, want, d)
			}
		}
	}
}

func TestReplicationHandValues(t *testing.T) {
	// b = 1, g = 2: the first failure degrades the pair; the next strikes
	// the live or the dead replica with probability 1/2 each, so 1 + 2 = 3.
	// b = 2: E(1) = 4/3 + (2/3)·2 = 8/3, E(0) = 1 + 8/3 = 11/3 (the pairs
	// recursion of Casanova et al. by hand). g = 1: the first failure interrupts.
	for _, c := range []struct {
		b, g int
		want float64
	}{{1, 2, 3}, {2, 2, 11.0 / 3}, {1, 1, 1}, {1000, 1, 1}, {1, 3, 1 + 3.0/2 + 3}} {
		got, err := Replication{Processes: c.b, Replicas: c.g, Rate: 0.5}.MNFTI()
		if err != nil {
			t.Fatal(err)
		}
		if relDiff(got, c.want) > 1e-14 {
			t.Errorf("b=%d g=%d: MNFTI %.15g, want %.15g", c.b, c.g, got, c.want)
		}
	}
	// g = 1: the MTTI is the platform MTBF 1/(bλ).
	m, _ := Replication{Processes: 37, Replicas: 1, Rate: 1e-5}.MTTI()
	if relDiff(m, 1/(37*1e-5)) > 1e-13 {
		t.Errorf("g=1 MTTI %v, want %v", m, 1/(37*1e-5))
	}
}

func TestMNFTIPairsAgainstClosedForm(t *testing.T) {
	// The pairs recursion against the beta-function closed form, b = 2^0
	// … 2^20 (the range of Casanova et al.'s Table 1). The recursion adds
	// b rounded terms: the tolerance grows like ε·sqrt(b).
	for k := 0; k <= 20; k++ {
		b := 1 << k
		rec, err := MNFTIPairs(b)
		if err != nil {
			t.Fatal(err)
		}
		cf, err := Replication{Processes: b, Replicas: 2, Rate: 1}.MNFTI()
		if err != nil {
			t.Fatal(err)
		}
		tol := 64 * 0x1p-52 * math.Sqrt(float64(b))
		if d := relDiff(cf, rec); d > tol {
			t.Errorf("b=2^%d: closed form %.12g, pairs recursion %.12g (rel %.2g > %.2g)", k, cf, rec, d, tol)
		}
	}
}

// TestReplicationSimulation samples T = min_i max_j X_ij directly (seeded)
// and checks MTTI within 4 standard errors; the power check is that the
// same samples reject the birthday-problem value, which is 30 % lower.
func TestReplicationSimulation(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 5000
	}
	rng := rand.New(rand.NewPCG(25, 2015))
	for _, c := range []struct{ b, g int }{{64, 2}, {16, 3}, {8, 1}, {128, 2}} {
		const lambda = 1.0 / 3600
		p := Replication{Processes: c.b, Replicas: c.g, Rate: lambda}
		mtti, err := p.MTTI()
		if err != nil {
			t.Fatal(err)
		}
		var sum, sum2 float64
		for range n {
			tmin := math.Inf(1)
			for range c.b {
				tmax := 0.0
				for range c.g {
					tmax = math.Max(tmax, rng.ExpFloat64()/lambda)
				}
				tmin = math.Min(tmin, tmax)
			}
			sum += tmin
			sum2 += tmin * tmin
		}
		mean := sum / float64(n)
		se := math.Sqrt((sum2/float64(n) - mean*mean) / float64(n))
		if math.Abs(mean-mtti) > 4*se {
			t.Errorf("b=%d g=%d: simulated MTTI %.6g ± %.2g, closed form %.6g", c.b, c.g, mean, se, mtti)
		}
		if c.g == 2 {
			bd, _ := BirthdayMNFTI(c.b)
			alt := bd / (float64(2*c.b) * lambda)
			if math.Abs(mean-alt) <= 4*se {
				t.Errorf("b=%d: simulation cannot tell the birthday value %.6g from %.6g (± %.2g): no power", c.b, alt, mean, se)
			}
		}
	}
}

func TestBirthdayMNFTI(t *testing.T) {
	// Small b by hand: 1 + Q(b), Q(1) = 1, Q(2) = 1 + 1/2, Q(3) = 1 + 2/3 + 2/9.
	for _, c := range []struct {
		b    int
		want float64
	}{{1, 2}, {2, 2.5}, {3, 1 + 1 + 2.0/3 + 2.0/9}} {
		got, err := BirthdayMNFTI(c.b)
		if err != nil {
			t.Fatal(err)
		}
		if relDiff(got, c.want) > 1e-15 {
			t.Errorf("b=%d: %v, want %v", c.b, got, c.want)
		}
	}
	// Large b: Knuth, TAOCP vol. 1, §1.2.11.3, eq. (25):
	// Q(n) = sqrt(πn/2) − 1/3 + (1/12)·sqrt(π/(2n)) − 4/(135n) + O(n^{−3/2}).
	for _, b := range []int{1 << 10, 1 << 16, 1 << 20} {
		n := float64(b)
		want := 1 + math.Sqrt(math.Pi*n/2) - 1.0/3 + math.Sqrt(math.Pi/(2*n))/12 - 4/(135*n)
		got, _ := BirthdayMNFTI(b)
		if d := math.Abs(got - want); d > 10*math.Pow(n, -1.5)+1e-9*want {
			t.Errorf("b=%d: %.12g, asymptotic %.12g (diff %.2g)", b, got, want, d)
		}
		// The correction of Casanova et al.: the birthday value is below MNFTI^ah.
		ah, _ := MNFTIPairs(b)
		if !(got < ah) {
			t.Errorf("b=%d: birthday %v not below MNFTI^ah %v", b, got, ah)
		}
	}
}

func TestReplicationErrors(t *testing.T) {
	for _, p := range []Replication{
		{0, 2, 1}, {4, 0, 1}, {4, MaxReplicationDegree + 1, 1}, {4, 2, 0}, {4, 2, math.Inf(1)}, {4, 2, math.NaN()},
	} {
		if _, err := p.MNFTI(); err == nil {
			t.Errorf("%+v: no error", p)
		}
		if _, err := p.MTTI(); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
	if _, err := MNFTIPairs(0); err == nil {
		t.Error("MNFTIPairs(0): no error")
	}
	if _, err := BirthdayMNFTI(0); err == nil {
		t.Error("BirthdayMNFTI(0): no error")
	}
}
