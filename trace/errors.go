package trace

import (
	"errors"
	"fmt"
)

// ErrTooFewEvents is returned (wrapped) by EstimateRates when the history
// holds fewer failures or repairs than required.
var ErrTooFewEvents = errors.New("trace: too few events")

// ParseError reports malformed input to a reader: the line and, when one
// field is at fault, the column.
type ParseError struct {
	Line   int    // 1-based line number in the input
	Column string // column name; empty when the line as a whole is at fault
	Err    error  // what is wrong
}

// Error returns a message naming the line and the column.
func (e *ParseError) Error() string {
	if e.Column == "" {
		return fmt.Sprintf("trace: line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("trace: line %d, column %q: %v", e.Line, e.Column, e.Err)
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }
