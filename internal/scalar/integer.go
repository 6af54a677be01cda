package scalar

import "math"

// IntFunc is a function of an integer that may fail, as Func.
type IntFunc func(int) (float64, error)

// MaximizeInt maximises g over the integers 0..hi from x0 in [0, hi],
// assuming g unimodal there: doubling steps in the rising direction until
// g stops rising, then golden-section steps on the integers of the
// bracket (one evaluation each, where a ternary search takes two per
// third) and a scan of the last three. Each integer is evaluated at most
// once. Ties go to the smaller integer; x0 is returned when neither
// neighbour is higher. It panics if x0 is outside [0, hi].
func MaximizeInt(g IntFunc, x0, hi int) (int, error) {
	if x0 < 0 || x0 > hi {
		panic("scalar: MaximizeInt start outside [0, hi]")
	}
	at := memoInt(g)
	dir, err := risingSide(at, x0, hi)
	if err != nil || dir == 0 {
		return x0, err
	}
	lo, up, x, err := bracketInt(at, x0, hi, dir)
	if err != nil {
		return 0, err
	}
	return goldenInt(at, lo, up, x)
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
// to [0, hi], while g rises, and returns [lo, up] holding the maximum and
// the best integer evaluated in it, x.
func bracketInt(at IntFunc, x0, hi, dir int) (lo, up, x int, err error) {
	prev, cur := x0, x0+dir
	fcur, err := at(cur)
	if err != nil {
		return 0, 0, 0, err
	}
	for step := 2; ; step *= 2 {
		next := min(max(cur+dir*step, 0), hi)
		if next == cur {
			return min(prev, cur), max(prev, cur), cur, nil
		}
		fn, err := at(next)
		if err != nil {
			return 0, 0, 0, err
		}
		if fn <= fcur {
			return min(prev, next), max(prev, next), cur, nil
		}
		prev, cur, fcur = cur, next, fn
	}
}

// goldenInt narrows [lo, up], which holds the maximum, around its best
// evaluated integer x by golden-section steps (Kiefer 1953, on the
// integers): each evaluates the integer a fraction 0.382 into the larger
// side of x (at least one step from x), and the bracket keeps the best of
// the two and the side beyond it; at most three integers left, it
// returns the best of them (the smallest on ties).
func goldenInt(at IntFunc, lo, up, x int) (int, error) {
	fx, err := at(x)
	if err != nil {
		return 0, err
	}
	for up-lo > 2 {
		y := x + max(1, int(cgold*float64(up-x)))
		if x-lo > up-x {
			y = x - max(1, int(cgold*float64(x-lo)))
		}
		fy, err := at(y)
		if err != nil {
			return 0, err
		}
		switch {
		case fy > fx || (fy == fx && y < x):
			if y < x {
				up = x
			} else {
				lo = x
			}
			x, fx = y, fy
		case y < x:
			lo = y
		default:
			up = y
		}
	}
	best, fb := lo, math.Inf(-1)
	for z := lo; z <= up; z++ {
		v, err := at(z)
		if err != nil {
			return 0, err
		}
		if v > fb {
			best, fb = z, v
		}
	}
	return best, nil
}
