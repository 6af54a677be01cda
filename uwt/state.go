package uwt

import "fmt"

// Kind is the kind of a state of the checkpoint model.
type Kind uint8

const (
	// Up is an up segment: compute for I, then checkpoint.
	Up Kind = iota
	// Recovery restores a checkpoint and writes a new one.
	Recovery
	// Down waits for repairs: too few processors to run.
	Down
)

func (k Kind) String() string {
	switch k {
	case Up:
		return "U"
	case Recovery:
		return "R"
	case Down:
		return "D"
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// State is a state of the model (model specification, section 4).
//
//	U(a, s): up on A = a processors with S = s functional spares at its start.
//	R(p, n): recovery with N = n functional processors, on r(n) of them,
//	         restoring a checkpoint written on P = p processors.
//	D(p, n): down with N = n functional processors.
//
// P is 0 when the recovery cost does not depend on the old processor count,
// in which case the states R(p, n) of every p are one state R(n).
type State struct {
	Kind Kind
	// A and S are the used processors and functional spares of an up state.
	A, S int
	// P is the processor count the checkpoint to restore was written on.
	P int
	// N is the functional processor count of a recovery or down state.
	N int
}

func (s State) String() string {
	switch s.Kind {
	case Up:
		return fmt.Sprintf("U(%d,%d)", s.A, s.S)
	case Recovery, Down:
		if s.P == 0 {
			return fmt.Sprintf("%v(%d)", s.Kind, s.N)
		}
		return fmt.Sprintf("%v(%d,%d)", s.Kind, s.P, s.N)
	}
	return fmt.Sprintf("State{%d,%d,%d,%d,%d}", s.Kind, s.A, s.S, s.P, s.N)
}

// Functional returns the number of functional processors at the start of
// the state.
func (s State) Functional() int {
	if s.Kind == Up {
		return s.A + s.S
	}
	return s.N
}
