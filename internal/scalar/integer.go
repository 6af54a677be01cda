package scalar

import "math"

// IntFunc is a function of an integer that may fail, as Func.
type IntFunc func(int) (float64, error)

// MaximizeInt maximises g over the integers 0..hi from x0 in [0, hi],
// assuming g unimodal there: doubling steps in the rising direction until
// g stops rising, then a ternary search on the integers of the bracket and
// a scan of the last three. Each integer is evaluated at most once. Ties
// go to the smaller integer; x0 is returned when neither neighbour is
// higher. It panics if x0 is outside [0, hi].
func MaximizeInt(g IntFunc, x0, hi int) (int, error) {
	if x0 < 0 || x0 > hi {
		panic("scalar: MaximizeInt start outside [0, hi]")
	}
	at := memoInt(g)
	dir, err := risingSide(at, x0, hi)
	if err != nil || dir == 0 {
		return x0, err
	}
	lo, up, err := bracketInt(at, x0, hi, dir)
	if err != nil {
		return 0, err
	}
	return ternaryInt(at, lo, up)
}

// memoInt wraps g so that each integer is evaluated once.
func memoInt(g IntFunc) IntFunc {
	val := map[int]float64{}
	return func(x int) (float64, error) {
		if y, ok := val[x]; ok {
			return y, nil
		}
		y, err := g(x)
		if err == nil {
			val[x] = y
		}
		return y, err
	}
}

// risingSide is +1 if g(x0+1) > g(x0), else −1 if g(x0−1) > g(x0), else 0.
func risingSide(at IntFunc, x0, hi int) (int, error) {
	f0, err := at(x0)
	if err != nil {
		return 0, err
	}
	for _, dir := range []int{1, -1} {
		if x := x0 + dir; x >= 0 && x <= hi {
			f, err := at(x)
			if err != nil {
				return 0, err
			}
			if f > f0 {
				return dir, nil
			}
		}
	}
	return 0, nil
}

// bracketInt steps from x0 in direction dir by doubling steps, clipped
// to [0, hi], while g rises, and returns [lo, up] holding the maximum.
func bracketInt(at IntFunc, x0, hi, dir int) (lo, up int, err error) {
	prev, cur := x0, x0+dir
	fcur, err := at(cur)
	if err != nil {
		return 0, 0, err
	}
	for step := 2; ; step *= 2 {
		next := min(max(cur+dir*step, 0), hi)
		if next == cur {
			return min(prev, cur), max(prev, cur), nil
		}
		fn, err := at(next)
		if err != nil {
			return 0, 0, err
		}
		if fn <= fcur {
			return min(prev, next), max(prev, next), nil
		}
		prev, cur, fcur = cur, next, fn
	}
}

// ternaryInt narrows [lo, up] by thirds to at most three integers and
// returns the best of them (the smallest on ties).
func ternaryInt(at IntFunc, lo, up int) (int, error) {
	for up-lo > 2 {
		m1, m2 := lo+(up-lo)/3, up-(up-lo)/3
		f1, err := at(m1)
		if err != nil {
			return 0, err
		}
		f2, err := at(m2)
		if err != nil {
			return 0, err
		}
		if f1 >= f2 {
			up = m2
		} else {
			lo = m1
		}
	}
	best, fb := lo, math.Inf(-1)
	for x := lo; x <= up; x++ {
		y, err := at(x)
		if err != nil {
			return 0, err
		}
		if y > fb {
			best, fb = x, y
		}
	}
	return best, nil
}
