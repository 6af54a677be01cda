package multilevel

// parts are the operations that the nested composition of a period
// (docs/model.md section 12, "the period nests"; period.go's composer,
// with scalars, is the reference) needs on a summary P of a part of the
// timeline: matrices over the spare count with failure events
// (events.go's ephase, whose products do not commute) or with single
// failures (position.go's mphase, whose products commute).
type parts[P any] interface {
	// segment returns a segment of I seconds of computation followed
	// by a level-k checkpoint, attempted once: the body of a level-1
	// block.
	segment(k int) (P, error)
	// wrap returns the level-l block around body: every failure of
	// severity ≤ l that ends body is handled by a recovery from the
	// level-l checkpoint that began it and a new attempt of body.
	wrap(l int, body P) (P, error)
	// then returns a followed by b (associative).
	then(a, b P) P
	// identity returns the part that completes at once.
	identity() P
}

// nest composes the blocks of a pattern from parts, each body and block
// once (the composition costs O(L² log max V) operations of P whatever
// the P = ∏(V_ℓ + 1) segments of a period). With B(l, k) the body of a
// level-l block ending with a level-k checkpoint (k ≥ l) and
// K(l, k) = wrap(l, B(l, k)) the block,
//
//	B(1, k) = segment(k),
//	B(l, k) = B(l−1, k)                                    if V_{l−1} = 0,
//	B(l, k) = B(l−1, l−1) · K(l−1, l−1)^{V_{l−1}−1} · K(l−1, k) otherwise,
//
// the products being then (in this order: the matrices of events.go do
// not commute) and the powers by repeat. The period is K(L, L).
type nest[P any] struct {
	p       parts[P]
	pattern []int
	// part[(l−1)L + k−1] is B(l, k), part[L² + (l−1)L + k−1] is K(l, k),
	// part[2L² + l−1] is B(l−1, l−1) · K(l−1, l−1)^{V_{l−1}−1} (shared by
	// every k), each valid where done holds true.
	part []P
	done []bool
}

// newNest returns the nesting of pattern (L − 1 entries) on p.
func newNest[P any](p parts[P], pattern []int) *nest[P] {
	L := len(pattern) + 1
	return &nest[P]{p: p, pattern: pattern, part: make([]P, 2*L*L+L), done: make([]bool, 2*L*L+L)}
}

// bodyAt, blockAt and headAt return the indices of B(l, k), K(l, k) and
// the head of level l in part.
func (n *nest[P]) bodyAt(l, k int) int {
	return (l-1)*(len(n.pattern)+1) + k - 1
}

func (n *nest[P]) blockAt(l, k int) int {
	L := len(n.pattern) + 1
	return L*L + n.bodyAt(l, k)
}

func (n *nest[P]) headAt(l int) int {
	L := len(n.pattern) + 1
	return 2*L*L + l - 1
}

// cached returns part[i] and whether it is composed.
func (n *nest[P]) cached(i int) (P, bool) { return n.part[i], n.done[i] }

// keep stores ph as part[i].
func (n *nest[P]) keep(i int, ph P) P {
	n.part[i], n.done[i] = ph, true
	return ph
}

// body returns B(l, k).
func (n *nest[P]) body(l, k int) (P, error) {
	if b, ok := n.cached(n.bodyAt(l, k)); ok {
		return b, nil
	}
	var ph P
	var err error
	if l == 1 {
		ph, err = n.p.segment(k)
	} else if v := n.pattern[l-2]; v == 0 {
		ph, err = n.body(l-1, k)
	} else {
		var head, last P
		if head, err = n.head(l, v); err == nil {
			if last, err = n.block(l-1, k); err == nil {
				ph = n.p.then(head, last)
			}
		}
	}
	if err != nil {
		var zero P
		return zero, err
	}
	return n.keep(n.bodyAt(l, k), ph), nil
}

// head returns B(l−1, l−1) · K(l−1, l−1)^{v−1}, v = V_{l−1} ≥ 1.
func (n *nest[P]) head(l, v int) (P, error) {
	if h, ok := n.cached(n.headAt(l)); ok {
		return h, nil
	}
	first, err := n.body(l-1, l-1)
	if err != nil {
		return first, err
	}
	mid, err := n.block(l-1, l-1)
	if err != nil {
		return mid, err
	}
	return n.keep(n.headAt(l), n.p.then(first, repeat(n.p, mid, v-1))), nil
}

// block returns K(l, k).
func (n *nest[P]) block(l, k int) (P, error) {
	if b, ok := n.cached(n.blockAt(l, k)); ok {
		return b, nil
	}
	body, err := n.body(l, k)
	if err != nil {
		return body, err
	}
	ph, err := n.p.wrap(l, body)
	if err != nil {
		return ph, err
	}
	return n.keep(n.blockAt(l, k), ph), nil
}

// repeat returns n ≥ 0 copies of a in sequence by repeated squaring
// (then is associative): p.identity() for n = 0, a itself for n = 1,
// O(log n) products of p.then.
func repeat[P any](p parts[P], a P, n int) P {
	var out P
	started := false
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			if started {
				out = p.then(out, a)
			} else {
				out, started = a, true
			}
		}
		if n > 1 {
			a = p.then(a, a)
		}
	}
	if !started {
		return p.identity()
	}
	return out
}
