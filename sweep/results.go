package sweep

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Files in a study's directory.
const (
	// StudyFile is the copy of the study file that Run keeps in the
	// directory, so that Merge knows every task.
	StudyFile = "study.json"
	// MergedCSV and MergedJSON are the merged tables Merge writes.
	MergedCSV  = "merged.csv"
	MergedJSON = "merged.json"
	// maxLine bounds one line of a result file.
	maxLine = 1 << 20
)

// ResultFile names the result file of shard k of n.
func ResultFile(k, n int) string { return fmt.Sprintf("results-%d-of-%d.jsonl", k, n) }

// Record is one task's row of the merged table. Numbers that do not apply
// to the task's computation, or are not finite, are nil.
type Record struct {
	Task    int    `json:"task"`
	Compute string `json:"compute"`
	ID      string `json:"id"`
	Seed    uint64 `json:"seed"`

	// The point.
	Scenario    string   `json:"scenario,omitempty"`
	System      string   `json:"system,omitempty"`
	Application string   `json:"application,omitempty"`
	Policy      string   `json:"policy,omitempty"`
	Processors  int      `json:"processors,omitempty"`
	MTTF        *float64 `json:"mttf,omitempty"`
	MTTR        *float64 `json:"mttr,omitempty"`
	Latency     *float64 `json:"checkpoint_latency,omitempty"`
	Recovery    *float64 `json:"recovery,omitempty"`

	// Model results: the interval (given, or I*), the model's UWT and
	// availability there; for optimize the near-optimal band and the
	// paper's I_model.
	Interval      *float64 `json:"interval,omitempty"`
	UWT           *float64 `json:"uwt,omitempty"`
	Availability  *float64 `json:"availability,omitempty"`
	BandLow       *float64 `json:"band_low,omitempty"`
	BandHigh      *float64 `json:"band_high,omitempty"`
	ModelInterval *float64 `json:"model_interval,omitempty"`

	// Simulation results.
	SimUWT          *float64 `json:"sim_uwt,omitempty"`
	SimUWTHalfWidth *float64 `json:"sim_uwt_half_width,omitempty"`
	SimAvailability *float64 `json:"sim_availability,omitempty"`
	ModelInCI       *bool    `json:"model_in_ci,omitempty"`

	// Trace replay results (means over the segments; see evaluate.Row):
	// Interval is the mean I* and UWT the model's mean UWT there.
	Segments        int      `json:"segments,omitempty"`
	Efficiency      *float64 `json:"efficiency,omitempty"`
	EfficiencyStd   *float64 `json:"efficiency_std,omitempty"`
	EfficiencyMin   *float64 `json:"efficiency_min,omitempty"`
	YoungEfficiency *float64 `json:"young_efficiency,omitempty"`
	DalyEfficiency  *float64 `json:"daly_efficiency,omitempty"`
	BestInterval    *float64 `json:"best_interval,omitempty"`
	ReplayUWT       *float64 `json:"replay_uwt,omitempty"`
	BestUWT         *float64 `json:"best_uwt,omitempty"`

	Status string `json:"status,omitempty"`
}

// fl returns a pointer to x, or nil when x is not finite.
func fl(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// record starts a task's record with its coordinates.
func (t Task) record() Record {
	return Record{
		Task: t.Index, Compute: t.Compute, ID: t.ID, Seed: t.Seed,
		Scenario: t.Scenario, System: t.System, Application: t.Application, Policy: t.Policy, Processors: t.Processors,
		MTTF: fl(t.MTTF), MTTR: fl(t.MTTR), Latency: fl(t.Latency), Recovery: fl(t.Recovery),
		Interval: fl(t.Interval),
	}
}

// line is one line of a result file. Seconds is the task's wall time,
// which the merged table leaves out.
type line struct {
	Study   string  `json:"study"`
	Task    int     `json:"task"`
	ID      string  `json:"id"`
	Seconds float64 `json:"seconds"`
	Record  Record  `json:"record"`
}

func encodeLines(ls []line) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, l := range ls {
		if err := enc.Encode(l); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// writeAtomic writes data to path through a temporary file in the same
// directory, synced and renamed over path, so that readers see the old
// file or the new one, never a part.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// claim keeps a copy of the study in dir, or checks that dir's copy is the
// same study.
func claim(st *Study, dir string) error {
	path := filepath.Join(dir, StudyFile)
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return writeAtomic(path, st.raw)
	case err != nil:
		return err
	case !bytes.Equal(old, st.raw):
		return fmt.Errorf("sweep: %s holds another study (%s differs); use a new directory", dir, StudyFile)
	}
	return nil
}

type fileLine struct {
	file string
	line
}

// readResults reads every result file of dir; each task must appear at
// most once and match the study.
func readResults(st *Study, dir string) (map[int]fileLine, error) {
	got, dups, err := scan(st, dir)
	if err != nil {
		return nil, err
	}
	if len(dups) > 0 {
		return nil, fmt.Errorf("sweep: %s: tasks %s are in more than one result", dir, list(dups))
	}
	return got, nil
}

// scan reads the result files of dir, returning the lines by task and the
// tasks seen more than once.
func scan(st *Study, dir string) (map[int]fileLine, []int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "results-*.jsonl"))
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(files)
	tasks := st.Expand()
	got := map[int]fileLine{}
	var dups []int
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 4096), maxLine)
		for k := 1; sc.Scan(); k++ {
			var l line
			dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&l); err != nil {
				f.Close()
				return nil, nil, fmt.Errorf("sweep: %s:%d: %w", path, k, err)
			}
			switch {
			case l.Study != st.hash:
				err = errors.New("a result of another study")
			case l.Task < 0 || l.Task >= len(tasks):
				err = fmt.Errorf("task %d, the study has tasks 0 … %d", l.Task, len(tasks)-1)
			case l.ID != tasks[l.Task].ID || l.Record.Task != l.Task || l.Record.ID != l.ID:
				err = fmt.Errorf("task %d is %q, the study's is %q", l.Task, l.ID, tasks[l.Task].ID)
			}
			if err != nil {
				f.Close()
				return nil, nil, fmt.Errorf("sweep: %s:%d: %w", path, k, err)
			}
			if _, ok := got[l.Task]; ok {
				dups = append(dups, l.Task)
				continue
			}
			got[l.Task] = fileLine{filepath.Base(path), l}
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("sweep: %s: %w", path, err)
		}
	}
	slices.Sort(dups)
	return got, slices.Compact(dups), nil
}

// list formats task numbers, the first 20 of them.
func list(ts []int) string {
	var s []string
	for _, t := range ts[:min(len(ts), 20)] {
		s = append(s, strconv.Itoa(t))
	}
	out := strings.Join(s, ", ")
	if len(ts) > 20 {
		out += fmt.Sprintf(" and %d more", len(ts)-20)
	}
	return out
}

// IncompleteError is Merge's error when tasks are missing or duplicated.
type IncompleteError struct {
	Dir                 string
	Missing, Duplicated []int
}

func (e *IncompleteError) Error() string {
	var parts []string
	if len(e.Missing) > 0 {
		parts = append(parts, fmt.Sprintf("%d tasks missing: %s", len(e.Missing), list(e.Missing)))
	}
	if len(e.Duplicated) > 0 {
		parts = append(parts, fmt.Sprintf("%d tasks in more than one result: %s", len(e.Duplicated), list(e.Duplicated)))
	}
	return "sweep: " + e.Dir + ": " + strings.Join(parts, "; ")
}

// Table is the merged result of a study: one record per task, by task
// number.
type Table struct {
	Study   string   `json:"study"`
	Records []Record `json:"records"`
}

// Merge reads the study copy and every result file of dir and returns the
// merged table. It fails with an *IncompleteError when a task is missing
// or present more than once. The table depends only on the results, not
// on how many shards produced them.
func Merge(dir string) (*Table, error) {
	st, err := Load(filepath.Join(dir, StudyFile))
	if err != nil {
		return nil, err
	}
	got, dups, err := scan(st, dir)
	if err != nil {
		return nil, err
	}
	n := st.count()
	var missing []int
	for i := range n {
		if _, ok := got[i]; !ok {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 || len(dups) > 0 {
		return nil, &IncompleteError{Dir: dir, Missing: missing, Duplicated: dups}
	}
	t := &Table{Study: st.Name, Records: make([]Record, n)}
	for i := range n {
		t.Records[i] = got[i].Record
	}
	return t, nil
}

// WriteJSON writes the table as indented JSON.
func (t *Table) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}

// csvColumns are the CSV header and how each cell is read from a record.
var csvColumns = []struct {
	name string
	cell func(*Record) string
}{
	{"task", func(r *Record) string { return strconv.Itoa(r.Task) }},
	{"compute", func(r *Record) string { return r.Compute }},
	{"id", func(r *Record) string { return r.ID }},
	{"seed", func(r *Record) string { return strconv.FormatUint(r.Seed, 10) }},
	{"scenario", func(r *Record) string { return r.Scenario }},
	{"system", func(r *Record) string { return r.System }},
	{"application", func(r *Record) string { return r.Application }},
	{"policy", func(r *Record) string { return r.Policy }},
	{"processors", func(r *Record) string { return intCell(r.Processors) }},
	{"mttf", func(r *Record) string { return cell(r.MTTF) }},
	{"mttr", func(r *Record) string { return cell(r.MTTR) }},
	{"checkpoint_latency", func(r *Record) string { return cell(r.Latency) }},
	{"recovery", func(r *Record) string { return cell(r.Recovery) }},
	{"interval", func(r *Record) string { return cell(r.Interval) }},
	{"uwt", func(r *Record) string { return cell(r.UWT) }},
	{"availability", func(r *Record) string { return cell(r.Availability) }},
	{"band_low", func(r *Record) string { return cell(r.BandLow) }},
	{"band_high", func(r *Record) string { return cell(r.BandHigh) }},
	{"model_interval", func(r *Record) string { return cell(r.ModelInterval) }},
	{"sim_uwt", func(r *Record) string { return cell(r.SimUWT) }},
	{"sim_uwt_half_width", func(r *Record) string { return cell(r.SimUWTHalfWidth) }},
	{"sim_availability", func(r *Record) string { return cell(r.SimAvailability) }},
	{"model_in_ci", func(r *Record) string {
		if r.ModelInCI == nil {
			return ""
		}
		return strconv.FormatBool(*r.ModelInCI)
	}},
	{"segments", func(r *Record) string { return intCell(r.Segments) }},
	{"efficiency", func(r *Record) string { return cell(r.Efficiency) }},
	{"efficiency_std", func(r *Record) string { return cell(r.EfficiencyStd) }},
	{"efficiency_min", func(r *Record) string { return cell(r.EfficiencyMin) }},
	{"young_efficiency", func(r *Record) string { return cell(r.YoungEfficiency) }},
	{"daly_efficiency", func(r *Record) string { return cell(r.DalyEfficiency) }},
	{"best_interval", func(r *Record) string { return cell(r.BestInterval) }},
	{"replay_uwt", func(r *Record) string { return cell(r.ReplayUWT) }},
	{"best_uwt", func(r *Record) string { return cell(r.BestUWT) }},
	{"status", func(r *Record) string { return r.Status }},
}

func cell(x *float64) string {
	if x == nil {
		return ""
	}
	return strconv.FormatFloat(*x, 'g', -1, 64)
}

func intCell(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// WriteCSV writes the table as CSV with a header row; empty cells are
// numbers that do not apply to the task.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	row := make([]string, len(csvColumns))
	for i, c := range csvColumns {
		row[i] = c.name
	}
	if err := cw.Write(row); err != nil {
		return err
	}
	for k := range t.Records {
		for i, c := range csvColumns {
			row[i] = c.cell(&t.Records[k])
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteMerged merges dir (Merge) and writes MergedCSV and MergedJSON into
// it, each atomically.
func WriteMerged(dir string) (*Table, error) {
	t, err := Merge(dir)
	if err != nil {
		return nil, err
	}
	var c, j bytes.Buffer
	if err := t.WriteCSV(&c); err != nil {
		return nil, err
	}
	if err := t.WriteJSON(&j); err != nil {
		return nil, err
	}
	if err := writeAtomic(filepath.Join(dir, MergedCSV), c.Bytes()); err != nil {
		return nil, err
	}
	return t, writeAtomic(filepath.Join(dir, MergedJSON), j.Bytes())
}
