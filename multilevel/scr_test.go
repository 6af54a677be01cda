package multilevel

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"strconv"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/shareddata"
)

// scrCurve is one file of LLNL's SCR model regression
// (regressTestingDir/test_intervalTime_*.data): the inputs from its
// header and the rows of (t, efficiency, time), as printed.
type scrCurve struct {
	name      string
	overheads []float64 // [0, C₁, C₂, C₃]: cost = recovery of each level
	rates     []float64 // [0, λ₁, λ₂, λ₃]: failures needing level ≥ i
	pattern   []int     // V₁, V₂
	rows      []scrRow
}

type scrRow struct {
	t                float64
	efficiency, time string // as printed (Python 2 str(float): 12 significant digits)
}

// readSCR reads every curve of the regression tarball, skipping the
// Subversion copies (.svn) and the maxes files.
func readSCR(tb testing.TB, file string) []scrCurve {
	tb.Helper()
	f, err := os.Open(file)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var curves []scrCurve
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg || strings.Contains(h.Name, ".svn") ||
			!strings.HasPrefix(path.Base(h.Name), "test_intervalTime_") {
			continue
		}
		c, err := parseSCR(path.Base(h.Name), tr)
		if err != nil {
			tb.Fatalf("%s: %v", h.Name, err)
		}
		curves = append(curves, c)
	}
	return curves
}

func floatList(s string) ([]float64, error) {
	s = strings.Trim(strings.TrimSpace(s), "[]")
	var out []float64
	for _, f := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

func parseSCR(name string, r io.Reader) (scrCurve, error) {
	c := scrCurve{name: name}
	sc := bufio.NewScanner(r)
	var cols map[string]int
	for sc.Scan() {
		line := sc.Text()
		var err error
		switch {
		case strings.HasPrefix(line, "# overheads:"):
			c.overheads, err = floatList(strings.TrimPrefix(line, "# overheads:"))
		case strings.HasPrefix(line, "# failure rates:"):
			c.rates, err = floatList(strings.TrimPrefix(line, "# failure rates:"))
		case strings.HasPrefix(line, "# Level:"):
			_, ratios, _ := strings.Cut(line, "levelRatios:")
			f := strings.Fields(ratios)
			if len(f) != 3 {
				return c, fmt.Errorf("levelRatios %q", ratios)
			}
			for _, x := range f[:2] {
				v, err := strconv.Atoi(x)
				if err != nil {
					return c, err
				}
				c.pattern = append(c.pattern, v)
			}
		case strings.HasPrefix(line, "#"):
		case cols == nil:
			cols = map[string]int{}
			for i, h := range strings.Split(line, "\t") {
				cols[h] = i
			}
		default:
			f := strings.Split(line, "\t")
			t, err := strconv.ParseFloat(f[cols["intervalTime"]], 64)
			if err != nil {
				return c, err
			}
			c.rows = append(c.rows, scrRow{t: t, efficiency: f[cols["efficiency"]], time: f[cols["time"]]})
		}
		if err != nil {
			return c, err
		}
	}
	if len(c.overheads) != 4 || len(c.rates) != 4 || len(c.pattern) != 2 || len(c.rows) == 0 {
		return c, fmt.Errorf("incomplete header or no rows")
	}
	return c, sc.Err()
}

// printed reports whether x matches the printed value s to its last
// digit: |x − s| at most half a unit of s's twelfth significant digit
// plus a relative 1e-13 for the rounding of both computations.
func printed(x float64, s string) bool {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return false
	}
	if v == 0 {
		return x == 0
	}
	ulp12 := math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-11)
	return math.Abs(x-v) <= 0.5*ulp12+1e-13*math.Abs(v)
}

// scrProcess is the process of a curve: one processor, so the
// interruption rate is Σλᵢ and severity i has the share λᵢ/Σλᵢ; each
// level's cost is its latency, overhead and recovery alike; no
// checkpoint after a recovery (the SCR model has none).
func scrProcess(c scrCurve) *Process {
	lam := c.rates[1] + c.rates[2] + c.rates[3]
	pr := &Process{Rate: lam}
	for i := 1; i <= 3; i++ {
		x := c.overheads[i]
		pr.Levels = append(pr.Levels, Level{Latency: x, Overhead: x, Recovery: x})
		pr.Severity = append(pr.Severity, c.rates[i]/lam)
	}
	return pr
}

// TestSCRRegression reproduces LLNL's SCR model regression results
// (../shared/data/scr-model/, README there): for every curve of the
// three-level "made_up" machine and every interval t, the expected period
// time and the efficiency printed. The printed values carry the SCR
// code's own rounding error: it forms 1 − e^{−ΛT} without expm1 (relative
// error ε/(ΛT) for the shortest attempt T_min) and divides by one minus
// the probability of failing again (error ε·ΛE[T] where that is near 1),
// so in the worst rows (efficiency 10⁻⁹) only six of its twelve digits
// are right: its single-level rows differ from their closed form
// e^{ΛR}(e^{Λ(t+C)} − 1)/Λ by as much, and the README checked them to ten
// digits. Each row must therefore agree to half a unit of its twelfth
// printed digit plus 2⁸·ε·(1/(ΛT_min) + ΛE[T]); rows where that error is
// below the twelfth digit agree digit for digit. Other semantics fail by
// far: without the escalation of a severity-ℓ failure during a level-ℓ
// recovery, rows differ by up to 23 %.
func TestSCRRegression(t *testing.T) {
	curves := readSCR(t, shareddata.SCRModel(t))
	if len(curves) != 324 {
		t.Fatalf("%d curves in the tarball, the README says 324", len(curves))
	}
	const eps = 0x1p-52
	rows, exact := 0, 0
	for _, c := range curves {
		pr := scrProcess(c)
		// The shortest attempt: the cheapest level the pattern uses.
		tmin := c.overheads[3]
		switch {
		case c.pattern[0] > 0:
			tmin = c.overheads[1]
		case c.pattern[1] > 0:
			tmin = c.overheads[2]
		}
		for _, r := range c.rows {
			if r.time == "0.0" {
				// SCR gave up there (README). Six rows at t = 0 are such
				// too (patterns of 6·10⁵ to 10⁶ segments with f = 50): no
				// period of checkpoints takes no time.
				continue
			}
			p, err := pr.Period(c.pattern, r.t)
			if err != nil {
				t.Fatalf("%s t=%v: %v", c.name, r.t, err)
			}
			rows++
			eff := p.Efficiency()
			if printed(p.Time, r.time) && printed(eff, r.efficiency) {
				exact++
				continue
			}
			v, err1 := strconv.ParseFloat(r.time, 64)
			e, err2 := strconv.ParseFloat(r.efficiency, 64)
			if err1 != nil || err2 != nil || !(v > 0) || e < 0 {
				t.Fatalf("%s t=%v: time %q, efficiency %q", c.name, r.t, r.time, r.efficiency)
			}
			kappa := 1/(pr.Rate*(tmin+r.t)) + pr.Rate*v
			tol := 0x1p8 * eps * kappa
			half := func(x float64) float64 { return 0.5 * math.Pow(10, math.Floor(math.Log10(x))-11) / x }
			if d := math.Abs(p.Time-v) / v; d > half(v)+tol {
				t.Errorf("%s t=%v: time %.12g, SCR printed %s (relative %.2g, allowed %.2g)", c.name, r.t, p.Time, r.time, d, half(v)+tol)
			}
			if e > 0 {
				if d := math.Abs(eff-e) / e; d > half(e)+tol {
					t.Errorf("%s t=%v: efficiency %.12g, SCR printed %s (relative %.2g, allowed %.2g)", c.name, r.t, eff, r.efficiency, d, half(e)+tol)
				}
			} else if eff != 0 {
				t.Errorf("%s t=%v: efficiency %v, SCR printed %s", c.name, r.t, eff, r.efficiency)
			}
		}
	}
	t.Logf("%d rows of %d curves: %d agree to every printed digit, the rest within SCR's rounding error", rows, len(curves), exact)
	if rows < 5000 {
		t.Errorf("only %d rows read", rows)
	}
}
