package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ckpt-markov/markov/internal/quote"
)

// genericHeader is the optional column header line of the generic format;
// genericHeaderEvent the one with the optional event column.
const (
	genericHeader      = "node,down_start,down_end"
	genericHeaderEvent = "node,down_start,down_end,event"
)

// ReadGeneric reads a trace in the generic text format described in the
// package documentation. Errors are *ParseError values naming the line and
// the column or directive key at fault.
// Gzip-compressed input is decompressed transparently.
func ReadGeneric(r io.Reader) (*Trace, error) {
	r, err := maybeGzip(r)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(r)
	// A line of MaxLineBytes bytes and its newline fit, as in the LANL
	// reader's lineLimiter.
	sc.Buffer(make([]byte, 0, 4096), MaxLineBytes+1)
	var g genericReader
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // a UTF-8 byte order mark
		}
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(text, "#"); ok {
			err = g.comment(strings.Fields(rest), line)
		} else {
			err = g.record(text, line)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = errLineTooLong
		}
		return nil, &ParseError{Line: line + 1, Err: err}
	}
	if g.nodes == nil {
		return nil, &ParseError{Line: max(line, 1), Err: errors.New("missing '# nodes=N start=S end=E' line")}
	}
	return New(g.nodes)
}

// genericReader is what ReadGeneric has read so far: the nodes (nil
// before the system directive), which have their own window, and whether
// a record (or the header) has been seen.
type genericReader struct {
	nodes     []Node
	windowSet []bool
	sawRecord bool
}

// comment reads a comment line's fields: the system directive, a node
// directive, or a comment proper (ignored).
func (g *genericReader) comment(fields []string, line int) error {
	switch {
	case len(fields) > 0 && strings.HasPrefix(fields[0], "nodes="):
		return g.system(fields, line)
	case len(fields) > 0 && strings.HasPrefix(fields[0], "node="):
		return g.nodeWindow(fields, line)
	}
	return nil
}

// system reads the '# nodes=N start=S end=E' directive.
func (g *genericReader) system(fields []string, line int) error {
	if g.nodes != nil {
		return &ParseError{Line: line, Column: "nodes", Err: errors.New("second '# nodes=N start=S end=E' line")}
	}
	v, err := directive(fields, "nodes", line)
	if err != nil {
		return err
	}
	n, err := atoiNodes(v["nodes"])
	if err != nil {
		return &ParseError{Line: line, Column: "nodes", Err: err}
	}
	start, end, err := window(v, line)
	if err != nil {
		return err
	}
	g.nodes = make([]Node, n)
	for i := range g.nodes {
		g.nodes[i] = Node{Start: start, End: end}
	}
	g.windowSet = make([]bool, n)
	return nil
}

// nodeWindow reads a '# node=I start=S end=E' directive.
func (g *genericReader) nodeWindow(fields []string, line int) error {
	if g.nodes == nil {
		return &ParseError{Line: line, Column: "node", Err: errors.New("node window before the '# nodes=N start=S end=E' line")}
	}
	v, err := directive(fields, "node", line)
	if err != nil {
		return err
	}
	i, err := nodeIndex(v["node"], len(g.nodes))
	if err != nil {
		return &ParseError{Line: line, Column: "node", Err: err}
	}
	if g.windowSet[i] {
		return &ParseError{Line: line, Column: "node", Err: fmt.Errorf("second window for node %d", i)}
	}
	start, end, err := window(v, line)
	if err != nil {
		return err
	}
	g.nodes[i].Start, g.nodes[i].End = start, end
	g.windowSet[i] = true
	return nil
}

// record reads the header or an outage line node,down_start,down_end[,event].
func (g *genericReader) record(text string, line int) error {
	fields := strings.Split(text, ",")
	if len(fields) != 3 && len(fields) != 4 {
		return &ParseError{Line: line, Err: fmt.Errorf("%d fields, want 3 or 4: %s", len(fields), genericHeaderEvent)}
	}
	for k := range fields {
		fields[k] = strings.TrimSpace(fields[k])
	}
	if h := strings.Join(fields, ","); !g.sawRecord && (h == genericHeader || h == genericHeaderEvent) {
		g.sawRecord = true // only one header, and only before the records
		return nil
	}
	g.sawRecord = true
	if g.nodes == nil {
		return &ParseError{Line: line, Err: errors.New("outage before the '# nodes=N start=S end=E' line")}
	}
	i, down, err := parseOutage(fields, len(g.nodes), line)
	if err != nil {
		return err
	}
	g.nodes[i].Down = append(g.nodes[i].Down, down)
	return nil
}

// parseOutage parses the fields of an outage line of a trace of n nodes:
// the node's index and the outage.
func parseOutage(fields []string, n, line int) (int, Interval, error) {
	i, err := nodeIndex(fields[0], n)
	if err != nil {
		return 0, Interval{}, &ParseError{Line: line, Column: "node", Err: err}
	}
	a, err := parseTime(fields[1])
	if err != nil {
		return 0, Interval{}, &ParseError{Line: line, Column: "down_start", Err: err}
	}
	b, err := parseTime(fields[2])
	if err != nil {
		return 0, Interval{}, &ParseError{Line: line, Column: "down_end", Err: err}
	}
	if b < a {
		return 0, Interval{}, &ParseError{Line: line, Column: "down_end", Err: fmt.Errorf("%v is before down_start %v", b, a)}
	}
	label := 0
	if len(fields) == 4 && fields[3] != "" {
		if label, err = atoi(fields[3], 0); err != nil {
			return 0, Interval{}, &ParseError{Line: line, Column: "event", Err: err}
		}
	}
	return i, Interval{Start: a, End: b, Event: label}, nil
}

// directive parses the key=value fields of a directive whose first key is
// kind; the keys must be exactly kind, start and end.
func directive(fields []string, kind string, line int) (map[string]string, error) {
	v := make(map[string]string, 3)
	for _, f := range fields {
		key, val, ok := strings.Cut(f, "=")
		if !ok {
			return nil, &ParseError{Line: line, Column: kind, Err: fmt.Errorf("%s is not key=value", quote.Value(f))}
		}
		if key != kind && key != "start" && key != "end" {
			return nil, &ParseError{Line: line, Column: kind, Err: fmt.Errorf("unknown key %s, want %s, start and end", quote.Value(key), kind)}
		}
		if _, dup := v[key]; dup {
			return nil, &ParseError{Line: line, Column: key, Err: errors.New("key given twice")}
		}
		v[key] = val
	}
	for _, key := range []string{kind, "start", "end"} {
		if _, ok := v[key]; !ok {
			return nil, &ParseError{Line: line, Column: key, Err: errors.New("key missing")}
		}
	}
	return v, nil
}

// window parses the start and end keys of a directive.
func window(v map[string]string, line int) (start, end float64, err error) {
	if start, err = parseTime(v["start"]); err != nil {
		return 0, 0, &ParseError{Line: line, Column: "start", Err: err}
	}
	if end, err = parseTime(v["end"]); err != nil {
		return 0, 0, &ParseError{Line: line, Column: "end", Err: err}
	}
	if end < start {
		return 0, 0, &ParseError{Line: line, Column: "end", Err: fmt.Errorf("%v is before start %v", end, start)}
	}
	return start, end, nil
}

func nodeIndex(s string, n int) (int, error) {
	i, err := atoi(s, 0)
	if err != nil {
		return 0, err
	}
	if i >= n {
		return 0, fmt.Errorf("node %d is not below nodes=%d", i, n)
	}
	return i, nil
}

func parseTime(s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not a number", quote.Value(s))
	}
	if !finite(x) {
		return 0, fmt.Errorf("%s is not finite", quote.Value(s))
	}
	if math.Abs(x) > MaxTime {
		return 0, fmt.Errorf("%s is beyond the limit of ±%g s", quote.Value(s), float64(MaxTime))
	}
	return x, nil
}

func formatTime(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// WriteGeneric writes t in the generic text format. Times are written with
// the fewest digits that read back exactly, so ReadGeneric returns a trace
// equal to t. The first line gives the node count and the window of t; a
// node directive follows for every node whose window differs from it. The
// event column is written only when some outage has an Event label.
func WriteGeneric(w io.Writer, t *Trace) error {
	bw := bufio.NewWriter(w)
	start, end := t.Window()
	fmt.Fprintf(bw, "# nodes=%d start=%s end=%s\n", t.NumNodes(), formatTime(start), formatTime(end))
	for i, n := range t.nodes {
		if n.Start != start || n.End != end {
			fmt.Fprintf(bw, "# node=%d start=%s end=%s\n", i, formatTime(n.Start), formatTime(n.End))
		}
	}
	labelled := false
	for _, n := range t.nodes {
		for _, iv := range n.Down {
			labelled = labelled || iv.Event != 0
		}
	}
	if !labelled {
		bw.WriteString(genericHeader + "\n")
	} else {
		bw.WriteString(genericHeaderEvent + "\n")
	}
	for i, n := range t.nodes {
		for _, iv := range n.Down {
			fmt.Fprintf(bw, "%d,%s,%s", i, formatTime(iv.Start), formatTime(iv.End))
			switch {
			case !labelled:
			case iv.Event == 0:
				bw.WriteString(",")
			default:
				fmt.Fprintf(bw, ",%d", iv.Event)
			}
			bw.WriteString("\n")
		}
	}
	return bw.Flush()
}
