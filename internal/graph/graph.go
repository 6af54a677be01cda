package graph

// Search marks in seen every vertex reachable from the vertices in from,
// which the caller has marked, along the edges e with keep[e] (every edge
// when keep is nil), and returns the number of vertices it marked. Vertex
// i's edges are e = ptr[i], …, ptr[i+1]−1, to adj[e]; a marked vertex is
// not entered again, so a vertex marked before the call and not in from
// is passed over, with what lies beyond it. The search is breadth-first:
// the vertices it marks are appended to from (within its capacity when
// they fit, so the caller's array may be written), and seen must hold
// len(ptr) − 1 marks. It panics, as a slice index does, if an index is
// out of range.
func Search(ptr, adj []int, keep, seen []bool, from []int) int {
	queue := from
	for h := 0; h < len(queue); h++ {
		i := queue[h]
		for e := ptr[i]; e < ptr[i+1]; e++ {
			if j := adj[e]; !seen[j] && (keep == nil || keep[e]) {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	return len(queue) - len(from)
}

// Marked returns the indices i with seen[i], in increasing order (counted
// first: one allocation).
func Marked(seen []bool) []int {
	count := 0
	for _, ok := range seen {
		if ok {
			count++
		}
	}
	out := make([]int, 0, count)
	for i, ok := range seen {
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// Renumber returns, for each vertex i, its index among the marked vertices
// (idx[i], −1 when seen[i] is false), and the marked vertices in
// increasing order (Marked): sub[idx[i]] = i. The caller bounds len(seen)
// to fit I.
func Renumber[I int | int32](seen []bool) (idx []I, sub []int) {
	sub = Marked(seen)
	idx = make([]I, len(seen))
	for i := range idx {
		idx[i] = -1
	}
	for k, i := range sub {
		idx[i] = I(k)
	}
	return idx, sub
}

// Compress returns the rows of the graph over n vertices whose edges are
// rows[e] → cols[e]: vertex i's successors are adj[ptr[i]:ptr[i+1]], in
// the order of the edges (a counting sort by row, stable). It panics if
// len(cols) < len(rows) or a row is outside [0, n).
func Compress(n int, rows, cols []int) (ptr, adj []int) {
	ptr = make([]int, n+1)
	for _, i := range rows {
		ptr[i+1]++
	}
	for i := range n {
		ptr[i+1] += ptr[i]
	}
	adj = make([]int, len(rows))
	next := make([]int, n)
	copy(next, ptr[:n])
	for e, i := range rows {
		adj[next[i]] = cols[e]
		next[i]++
	}
	return ptr, adj
}
