package birthdeath

import (
	"math"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		m             int
		lambda, theta float64
		field         string
	}{
		{-1, 1, 1, "m"},
		{3, -1, 1, "lambda"},
		{3, math.NaN(), 1, "lambda"},
		{3, math.Inf(1), 1, "lambda"},
		{3, 1, -2, "theta"},
		{3, 1, math.NaN(), "theta"},
		{3, 1, math.Inf(1), "theta"},
	} {
		_, err := New(tc.m, tc.lambda, tc.theta)
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("New(%d, %v, %v) = %v, want an error naming %s", tc.m, tc.lambda, tc.theta, err, tc.field)
		}
	}
	for _, tc := range []struct {
		m             int
		lambda, theta float64
	}{{0, 1, 1}, {4, 0, 1}, {4, 1, 0}, {4, 0, 0}} {
		c, err := New(tc.m, tc.lambda, tc.theta)
		if err != nil {
			t.Errorf("New(%+v): %v", tc, err)
			continue
		}
		if c.M() != tc.m || c.Lambda() != tc.lambda || c.Theta() != tc.theta {
			t.Errorf("accessors of %+v: %d %v %v", tc, c.M(), c.Lambda(), c.Theta())
		}
	}
}

// TestGenerator checks G_m entry by entry against its definition.
func TestGenerator(t *testing.T) {
	const m = 6
	lambda, theta := 0.3, 1.7
	c, _ := New(m, lambda, theta)
	g := c.Generator()
	for i := 0; i <= m; i++ {
		var sum float64
		for j := 0; j <= m; j++ {
			var want float64
			switch j {
			case i - 1:
				want = float64(i) * lambda
			case i + 1:
				want = float64(m-i) * theta
			case i:
				want = -(float64(i)*lambda + float64(m-i)*theta)
			}
			if got := g.At(i, j); math.Abs(got-want) > 1e-15 {
				t.Errorf("G[%d,%d] = %v, want %v", i, j, got, want)
			}
			sum += g.At(i, j)
		}
		if math.Abs(sum) > 1e-14 {
			t.Errorf("row %d of G sums to %v", i, sum)
		}
	}
}

func TestTransitionErrors(t *testing.T) {
	c, _ := New(3, 1, 2)
	for _, tc := range []struct {
		t, rho float64
		s      *Settings
		field  string
	}{
		{-1, 1, nil, "t"},
		{math.NaN(), 1, nil, "t"},
		{math.Inf(1), 1, nil, "t"},
		{1, -1, nil, "rho"},
		{1, math.NaN(), nil, "rho"},
		{1, math.Inf(1), nil, "rho"},
		{1, 1, &Settings{Method: Method(42)}, "Method"},
	} {
		var p mat.Dense
		err := c.Transition(&p, nil, tc.t, tc.rho, tc.s)
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("Transition(t=%v, rho=%v, %+v) = %v, want an error naming %s", tc.t, tc.rho, tc.s, err, tc.field)
		}
		if !p.IsEmpty() {
			t.Errorf("destination written on error")
		}
	}
	for _, rates := range [][2]float64{{0, 1}, {1, 0}} {
		c, _ := New(3, rates[0], rates[1])
		var p mat.Dense
		if err := c.Transition(&p, nil, 1, 1, &Settings{Method: Eigen}); err == nil {
			t.Errorf("Eigen with rates %v: no error", rates)
		}
	}
}

func TestTransitionShapePanic(t *testing.T) {
	c, _ := New(3, 1, 2)
	defer func() {
		if recover() != mat.ErrShape {
			t.Error("no mat.ErrShape panic for a 3×3 destination of a 4-state chain")
		}
	}()
	c.Transition(mat.NewDense(3, 3, nil), nil, 1, 1, nil)
}

// TestTransitionReuse checks that a correctly sized destination is
// overwritten, not accumulated into.
func TestTransitionReuse(t *testing.T) {
	c, _ := New(4, 1, 2)
	var want mat.Dense
	c.Transition(&want, nil, 0.3, 0, nil)
	got := mat.NewDense(5, 5, nil)
	for i := 0; i < 5; i++ {
		for j := 0; j < 5; j++ {
			got.Set(i, j, 7)
		}
	}
	c.Transition(got, nil, 0.3, 0, nil)
	if !mat.Equal(got, &want) {
		t.Error("sized destination not overwritten")
	}
}

// TestEigenConcurrent calls the lazily factorised Eigen method from many
// goroutines (run with -race) and checks every result.
func TestEigenConcurrent(t *testing.T) {
	c, _ := New(8, 0.5, 1.5)
	var want mat.Dense
	if err := c.Transition(&want, nil, 0.7, 0, &Settings{Method: ClosedForm}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]float64, 16)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var p mat.Dense
			if err := c.Transition(&p, nil, 0.7, 0, &Settings{Method: Eigen}); err != nil {
				errs[g] = math.Inf(1)
				return
			}
			errs[g] = maxAbsDiff(&p, &want)
		}()
	}
	wg.Wait()
	for g, e := range errs {
		if e > denseTol {
			t.Errorf("goroutine %d: error %v", g, e)
		}
	}
}

func TestMethodString(t *testing.T) {
	for m, want := range map[Method]string{Auto: "Auto", VanLoan: "VanLoan", Eigen: "Eigen", ClosedForm: "ClosedForm", Method(9): "Method(9)"} {
		if got := m.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(m), got, want)
		}
	}
}
