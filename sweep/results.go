package sweep

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
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
	// Error is why the task failed (Status "Failed"); a rerun of its
	// shard tries it again.
	Error string `json:"error,omitempty"`
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

// writeAtomic writes data to path through a temporary file in the same
// directory, synced and renamed over path, so that readers see the old
// file or the new one, never a part.
func writeAtomic(path string, data []byte) error {
	return writeAtomicFunc(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeAtomicFunc is writeAtomic of what write writes.
func writeAtomicFunc(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	bw := bufio.NewWriter(f)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
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
// same study. A directory of another study in which no task finished (a
// run that failed at once, say on a missing trace) takes the new study:
// the old result files, failures only, are renamed aside
// ("replaced-HASH-results-…").
func claim(st *Study, dir string) error {
	path := filepath.Join(dir, StudyFile)
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return writeAtomic(path, st.raw)
	case err != nil:
		return err
	case bytes.Equal(old, st.raw):
		return nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "results-*.jsonl"))
	if err != nil {
		return err
	}
	n := 0
	for _, f := range files {
		k, err := finishedLines(f)
		if err != nil {
			return err
		}
		n += k
	}
	if n > 0 {
		return fmt.Errorf("sweep: %s holds %d results of another study (%s differs); use a new directory", dir, n, StudyFile)
	}
	sum := sha256.Sum256(old)
	for _, f := range files {
		aside := filepath.Join(dir, "replaced-"+hex.EncodeToString(sum[:6])+"-"+filepath.Base(f))
		if err := os.Rename(f, aside); err != nil {
			return err
		}
	}
	return writeAtomic(path, st.raw)
}

// finishedLines counts the lines of a result file that hold a result.
func finishedLines(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, maxLine)
	n := 0
	for {
		b, err := readLine(r)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return 0, fmt.Errorf("sweep: %s: %w", path, err)
		}
		var h header
		if json.Unmarshal(b, &h) == nil && h.state() == finished {
			n++
		}
	}
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

// IncompleteError is Merge's error when tasks are missing or have two
// different results. Files are the result files a rerun of their shard
// would tidy (second copies, a line cut short).
type IncompleteError struct {
	Dir                  string
	Missing, Conflicting []int
	Files                []string
}

func (e *IncompleteError) Error() string {
	var parts []string
	if len(e.Missing) > 0 {
		parts = append(parts, fmt.Sprintf("%d tasks missing: %s", len(e.Missing), list(e.Missing)))
	}
	if len(e.Conflicting) > 0 {
		parts = append(parts, fmt.Sprintf("%d tasks with two different results: %s (a rerun of the shard of %s keeps the first)",
			len(e.Conflicting), list(e.Conflicting), strings.Join(e.Files, ", ")))
	}
	return "sweep: " + e.Dir + ": " + strings.Join(parts, "; ")
}

// Table is the merged result of a study: one record per task, by task
// number.
type Table struct {
	Study   string   `json:"study"`
	Records []Record `json:"records"`
}

// Merged is what WriteMerged wrote: Tasks records, of which Failed are
// failures (their error in the row), and how many second copies of a
// result it left out.
type Merged struct {
	Study      string
	Tasks      int
	Failed     []int
	Duplicates int
}

// openDir loads dir's study copy and indexes its result files; it fails
// with an *IncompleteError when a task is missing or has two different
// results.
func openDir(dir string) (*Study, *index, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, nil, fmt.Errorf("sweep: %s: no such directory", dir)
	}
	path := filepath.Join(dir, StudyFile)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("sweep: %s holds no results: it lacks %s, the copy of the study that sweep run writes before its first task", dir, StudyFile)
	}
	st, err := Load(path)
	if err != nil {
		return nil, nil, err
	}
	ix, err := scanDir(st, dir)
	if err != nil {
		return nil, nil, err
	}
	inc := &IncompleteError{Dir: dir, Conflicting: ix.conflicts}
	for i, e := range ix.entries {
		if e.state == absent {
			inc.Missing = append(inc.Missing, i)
		}
	}
	for fi, f := range ix.files {
		if ix.extra[fi] > 0 || ix.partial[fi] {
			inc.Files = append(inc.Files, f)
		}
	}
	if len(inc.Missing) > 0 || len(inc.Conflicting) > 0 {
		return nil, nil, inc
	}
	return st, ix, nil
}

// each calls fn with the kept record of every task, in task order,
// reading one line at a time. It keeps at most maxOpen result files open
// (a study may have 10⁵ shards).
func (ix *index) each(fn func(*Record) error) error {
	const maxOpen = 64
	open := map[int32]*os.File{}
	defer func() {
		for _, f := range open {
			f.Close()
		}
	}()
	buf := make([]byte, 0, 4096)
	for _, e := range ix.entries {
		f, ok := open[e.file]
		if !ok {
			if len(open) == maxOpen {
				for k, g := range open {
					g.Close()
					delete(open, k)
				}
			}
			var err error
			if f, err = os.Open(filepath.Join(ix.dir, ix.files[e.file])); err != nil {
				return err
			}
			open[e.file] = f
		}
		buf = slices.Grow(buf[:0], int(e.len))[:e.len]
		if _, err := f.ReadAt(buf, e.off); err != nil {
			return err
		}
		var l line
		dec := json.NewDecoder(bytes.NewReader(buf))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return fmt.Errorf("sweep: %s at byte %d: %w", ix.files[e.file], e.off, err)
		}
		if err := fn(&l.Record); err != nil {
			return err
		}
	}
	return nil
}

// Merge reads the study copy and every result file of dir and returns the
// merged table. It fails with an *IncompleteError when a task is missing
// or has two different results; a second identical copy of a result, or
// a failure a result supersedes, is left out. The table depends only on
// the results, not on how many shards produced them. It holds every
// record: WriteMerged streams them instead.
func Merge(dir string) (*Table, error) {
	st, ix, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	t := &Table{Study: st.Name, Records: make([]Record, 0, len(ix.entries))}
	return t, ix.each(func(r *Record) error {
		t.Records = append(t.Records, *r)
		return nil
	})
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
	{"error", func(r *Record) string { return r.Error }},
}

func csvHeader() []string {
	row := make([]string, len(csvColumns))
	for i, c := range csvColumns {
		row[i] = c.name
	}
	return row
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
	if err := cw.Write(csvHeader()); err != nil {
		return err
	}
	row := make([]string, len(csvColumns))
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

// WriteMerged merges dir as Merge does and writes MergedCSV and
// MergedJSON into it, each atomically, one record at a time: its memory
// does not grow with the records (the index of the result files holds
// about 24 bytes a task). The files are the bytes WriteCSV and WriteJSON
// write for Merge's table.
func WriteMerged(dir string) (*Merged, error) {
	st, ix, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	m := &Merged{Study: st.Name, Tasks: len(ix.entries), Duplicates: ix.duplicates}
	// One pass over the records writes both files: the JSON file is
	// written (and renamed) inside the CSV file's writing.
	err = writeAtomicFunc(filepath.Join(dir, MergedCSV), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		if err := cw.Write(csvHeader()); err != nil {
			return err
		}
		row := make([]string, len(csvColumns))
		both := func(fn func(*Record) error) error {
			return ix.each(func(r *Record) error {
				if r.Error != "" {
					m.Failed = append(m.Failed, r.Task)
				}
				for i, c := range csvColumns {
					row[i] = c.cell(r)
				}
				if err := cw.Write(row); err != nil {
					return err
				}
				return fn(r)
			})
		}
		err := writeAtomicFunc(filepath.Join(dir, MergedJSON), func(jw io.Writer) error {
			return writeTableJSON(jw, st.Name, both)
		})
		if err != nil {
			return err
		}
		cw.Flush()
		return cw.Error()
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// writeTableJSON writes a Table as WriteJSON does, taking the records
// one at a time from each.
func writeTableJSON(w io.Writer, study string, each func(func(*Record) error) error) error {
	name, err := json.Marshal(study)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "{\n  \"study\": %s,\n  \"records\": [", name); err != nil {
		return err
	}
	n := 0
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("    ", "  ")
	err = each(func(r *Record) error {
		buf.Reset()
		if n > 0 {
			buf.WriteString(",")
		}
		buf.WriteString("\n    ")
		n++
		if err := enc.Encode(r); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // the encoder's newline
		_, err := w.Write(buf.Bytes())
		return err
	})
	if err != nil {
		return err
	}
	end := "\n  ]\n}\n"
	if n == 0 {
		end = "]\n}\n"
	}
	_, err = io.WriteString(w, end)
	return err
}
