// Package graph holds the toolkit's one reachability search, over the
// transition graph of a chain stored by rows (compressed sparse rows):
// vertex i's edges are e = ptr[i], …, ptr[i+1]−1, to adj[e].
//
// Search marks every vertex reachable from a set of vertices, along
// every edge or along the edges kept by a mask, by a breadth-first
// search with a queue: O(V + E) time, no recursion. The set reached does
// not depend on the order of the search; breadth-first visits the
// states of the banded chains of package markov's benchmarks nearly in
// order, in half the time of a depth-first search (BENCHMARKS.md,
// dedup2). The marks are the caller's, so that a search can continue
// where another stopped: package uwt continues its search along the
// kept transitions of its pruned chain along the pruned ones, to count
// the states the pruning lost. Marked and Renumber turn the marks into
// the reached vertices in increasing order and each vertex's index among
// them; Compress gives the rows of a graph whose edges are listed as
// (row, column) pairs in any order.
//
// Callers: markov.Chain.Reachable and ClosedClass (the states reachable
// from a start), package uwt's restriction of its pruned chain to the
// states reachable from the start state, and package optimal's
// restriction of a policy's jump chain to the states reachable from a
// decision state before its stationary law is solved.
//
// References:
//
//   - T. H. Cormen, C. E. Leiserson, R. L. Rivest and C. Stein,
//     Introduction to Algorithms, 3rd ed., MIT Press, 2009, section 22.2
//     (breadth-first search).
//   - S. Warshall, A theorem on Boolean matrices, J. ACM 9(1), 11–12,
//     1962 (the transitive closure the tests hold Search against).
package graph
