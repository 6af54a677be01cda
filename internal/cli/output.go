package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ckpt-markov/markov/scenario"
)

// jsonFloat is a number that encodes as null when it is not finite, which
// encoding/json refuses.
type jsonFloat float64

// MarshalJSON implements json.Marshaler.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// report is a command's result in the three forms the output flags choose
// between. A run function builds one from the library's result and hands
// it to env.render, the one place results are written (as cli/cli's
// exporter and table printer).
type report interface {
	// JSON returns the --json value: snake_case keys, every time in
	// seconds, and a "scenario" object (scenarioJSON) wherever the command
	// has a scenario.
	JSON() any
	// CSV returns the --csv header and rows, times in seconds.
	CSV() (header []string, rows [][]string)
	// Text writes the aligned form for people.
	Text(w io.Writer) error
}

// render writes r in the form o asks for.
func (e *env) render(o outputOptions, r report) error {
	switch {
	case o.JSON:
		return writeJSON(e.out, r.JSON())
	case o.CSV:
		header, rows := r.CSV()
		return writeCSV(e.out, header, rows)
	}
	return r.Text(e.out)
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeCSV prints a header and rows.
func writeCSV(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return cw.Error()
}

// csvFloat formats a number for CSV at full precision.
func csvFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// table writes aligned columns for people.
type table struct{ tw *tabwriter.Writer }

func newTable(w io.Writer) *table {
	return &table{tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
}

// row writes one row of cells; trailing empty cells are left out, so that
// no line ends in padding.
func (t *table) row(cells ...string) {
	for len(cells) > 0 && cells[len(cells)-1] == "" {
		cells = cells[:len(cells)-1]
	}
	for i, c := range cells {
		if i > 0 {
			fmt.Fprint(t.tw, "\t")
		}
		fmt.Fprint(t.tw, c)
	}
	fmt.Fprintln(t.tw)
}

// flush writes the table.
func (t *table) flush() error { return t.tw.Flush() }

// dur formats seconds for people: "17.61h (63396 s)".
func dur(sec float64) string {
	if math.IsNaN(sec) || math.IsInf(sec, 0) {
		return "-"
	}
	return fmt.Sprintf("%s (%.6g s)", scenario.FormatDuration(sec), sec)
}

// short formats seconds compactly: "17.61h".
func short(sec float64) string {
	if math.IsNaN(sec) || math.IsInf(sec, 0) {
		return "-"
	}
	return scenario.FormatDuration(sec)
}

// num formats a figure to five significant digits.
func num(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 5, 64)
}

// sci formats a small quantity such as a residual.
func sci(v float64) string { return strconv.FormatFloat(v, 'e', 1, 64) }

// percent formats a fraction as a percentage to two decimals, without
// trailing zeros: "99.69%", "100%".
func percent(f float64) string {
	if math.IsNaN(f) {
		return "-"
	}
	s := strconv.FormatFloat(100*f, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "%"
}

// halfWidth formats the half-width of a confidence interval to two
// significant digits.
func halfWidth(v float64) string { return strconv.FormatFloat(v, 'g', 2, 64) }

// processors returns "1 processor" or "N processors".
func processors(n int) string {
	if n == 1 {
		return "1 processor"
	}
	return fmt.Sprintf("%d processors", n)
}
