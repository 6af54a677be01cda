package sweep

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// The state of a task in a directory.
const (
	absent   uint8 = iota
	failed         // only lines with an error
	finished       // a line with a result
)

// entry locates the line kept for a task: its first finished line, or
// else its last failed one.
type entry struct {
	off   int64
	len   int32 // with the newline
	file  int32 // index in index.files
	state uint8
}

// index is what a directory's result files hold, task by task, without
// the records: about 24 bytes a task.
type index struct {
	dir     string
	files   []string // result file names, sorted
	entries []entry  // by task
	// Per file: the lines that are not kept (second copies, failures a
	// result supersedes), whether it ends with a line cut short (a writer
	// killed while writing) and the length of its complete lines.
	extra   []int
	partial []bool
	size    []int64
	// conflicts are the tasks with two finished lines whose records
	// differ; duplicates counts the identical second copies.
	conflicts  []int
	duplicates int
}

// lockName names the lock file of a result file.
func lockName(file string) string { return "." + file + ".lock" }

// readLine reads one line of at most maxLine bytes. A last line without
// its newline is returned with io.EOF.
func readLine(r *bufio.Reader) ([]byte, error) {
	b, err := r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("line longer than the limit of %d bytes", maxLine)
	}
	return b, err
}

// header is the part of a result line a writer reads to learn what
// another process wrote.
type header struct {
	Task   int `json:"task"`
	Record struct {
		Error string `json:"error"`
	} `json:"record"`
}

func (h *header) state() uint8 {
	if h.Record.Error != "" {
		return failed
	}
	return finished
}

// scanDir reads every result file of dir and checks each line against
// the study.
func scanDir(st *Study, dir string) (*index, error) {
	files, err := filepath.Glob(filepath.Join(dir, "results-*.jsonl"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	ix := &index{dir: dir, entries: make([]entry, st.count()),
		extra: make([]int, len(files)), partial: make([]bool, len(files)), size: make([]int64, len(files))}
	r := bufio.NewReaderSize(nil, maxLine)
	for fi, path := range files {
		ix.files = append(ix.files, filepath.Base(path))
		if err := ix.scanFile(st, fi, path, r); err != nil {
			return nil, err
		}
	}
	slices.Sort(ix.conflicts)
	ix.conflicts = slices.Compact(ix.conflicts)
	return ix, nil
}

func (ix *index) scanFile(st *Study, fi int, path string, r *bufio.Reader) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r.Reset(f)
	var off int64
	for k := 1; ; k++ {
		b, err := readLine(r)
		if err == io.EOF {
			ix.partial[fi] = len(b) > 0
			break
		}
		if err != nil {
			return fmt.Errorf("sweep: %s:%d: %w", path, k, err)
		}
		var h lineHead
		if err := json.Unmarshal(b, &h); err != nil {
			return fmt.Errorf("sweep: %s:%d: %w", path, k, err)
		}
		if err := h.check(st); err != nil {
			return fmt.Errorf("sweep: %s:%d: %w", path, k, err)
		}
		if err := ix.add(&h, b, entry{off: off, len: int32(len(b)), file: int32(fi)}); err != nil {
			return fmt.Errorf("sweep: %s:%d: %w", path, k, err)
		}
		off += int64(len(b))
	}
	ix.size[fi] = off
	return nil
}

// lineHead is what the index reads of a result line: the fields that
// place it. The whole line is decoded strictly (unknown fields are
// errors) by decodeLine, when merge reads it.
type lineHead struct {
	Study  string `json:"study"`
	Task   int    `json:"task"`
	ID     string `json:"id"`
	Record struct {
		Task  int    `json:"task"`
		ID    string `json:"id"`
		Error string `json:"error"`
	} `json:"record"`
}

// check checks that the line is a task of st.
func (h *lineHead) check(st *Study) error {
	n := st.count()
	switch {
	case h.Study != st.hash:
		return errors.New("a result of another study")
	case h.Task < 0 || h.Task >= n:
		return fmt.Errorf("task %d, the study has tasks 0 … %d", h.Task, n-1)
	}
	if id := st.Task(h.Task).ID; h.ID != id || h.Record.Task != h.Task || h.Record.ID != h.ID {
		return fmt.Errorf("task %d is %q, the study's is %q", h.Task, h.ID, id)
	}
	return nil
}

// decodeLine reads a result line strictly and checks that it is a task
// of st.
func decodeLine(st *Study, b []byte) (line, error) {
	var l line
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return l, err
	}
	h := lineHead{Study: l.Study, Task: l.Task, ID: l.ID}
	h.Record.Task, h.Record.ID = l.Record.Task, l.Record.ID
	return l, h.check(st)
}

// add records the line b (head h) found at e: a result supersedes a
// failure and a later failure an earlier one, a second copy of a result
// is counted in extra, and a second result that differs from the first is
// a conflict.
func (ix *index) add(h *lineHead, b []byte, e entry) error {
	e.state = finished
	if h.Record.Error != "" {
		e.state = failed
	}
	old := &ix.entries[h.Task]
	switch {
	case old.state == absent:
		*old = e
		return nil
	case old.state == failed:
		// A result supersedes a failure, and a later failure (a rerun's)
		// an earlier one.
		ix.extra[old.file]++
		*old = e
		return nil
	}
	ix.extra[e.file]++
	if e.state == finished {
		first, err := ix.record(*old)
		if err != nil {
			return err
		}
		var l line
		if err := json.Unmarshal(b, &l); err != nil {
			return err
		}
		x, _ := json.Marshal(first)
		y, _ := json.Marshal(l.Record)
		if bytes.Equal(x, y) {
			ix.duplicates++
		} else {
			ix.conflicts = append(ix.conflicts, h.Task)
		}
	}
	return nil
}

// record reads the record of the line at e.
func (ix *index) record(e entry) (Record, error) {
	f, err := os.Open(filepath.Join(ix.dir, ix.files[e.file]))
	if err != nil {
		return Record{}, err
	}
	defer f.Close()
	b := make([]byte, e.len)
	if _, err := f.ReadAt(b, e.off); err != nil {
		return Record{}, err
	}
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		return Record{}, err
	}
	return l.Record, nil
}

// tidy rewrites result file fi so that it holds its kept lines only: no
// second copy, no superseded failure, no line cut short. The caller holds
// the file's lock.
func (ix *index) tidy(fi int) error {
	path := filepath.Join(ix.dir, ix.files[fi])
	if ix.extra[fi] == 0 {
		if ix.partial[fi] {
			return os.Truncate(path, ix.size[fi])
		}
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	tmp, err := os.CreateTemp(ix.dir, "."+ix.files[fi]+".tmp-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(tmp)
	r := bufio.NewReaderSize(f, maxLine)
	var off int64
	for off < ix.size[fi] {
		b, err := readLine(r)
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return err
		}
		var h header
		if err := json.Unmarshal(b, &h); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return err
		}
		if e := ix.entries[h.Task]; int(e.file) == fi && e.off == off {
			w.Write(b)
		}
		off += int64(len(b))
	}
	err = w.Flush()
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// shardWriter appends the results of one shard to its result file. Each
// flush takes the file's lock, reads what other processes appended since
// its last look, cuts a line a killed writer left short, appends the
// pending lines of the tasks nobody finished meanwhile, and syncs: two
// processes running the same shard never lose nor duplicate a result.
type shardWriter struct {
	path, lock string
	every      time.Duration
	last       time.Time

	mu     sync.Mutex
	states []uint8 // by task: absent, failed, finished (by anyone)

	pending []pendingLine
	info    os.FileInfo // the file as last seen, and its length then
	off     int64
	r       *bufio.Reader
}

type pendingLine struct {
	task  int
	state uint8
	data  []byte
}

// done reports whether task i has a result (from this run or another).
func (w *shardWriter) done(i int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.states[i] == finished
}

// add queues the line of a task and flushes if FlushEvery has passed.
func (w *shardWriter) add(l line) error {
	data, err := json.Marshal(l)
	if err != nil {
		return err
	}
	p := pendingLine{task: l.Task, state: finished, data: append(data, '\n')}
	if l.Record.Error != "" {
		p.state = failed
	}
	w.pending = append(w.pending, p)
	if w.every < 0 || time.Since(w.last) >= w.every {
		return w.flush()
	}
	return nil
}

func (w *shardWriter) flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	unlock, err := lock(w.lock)
	if err != nil {
		return err
	}
	defer unlock()
	f, err := os.OpenFile(w.path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if w.info == nil || !os.SameFile(w.info, info) || info.Size() < w.off {
		w.off = 0 // rewritten (tidied) by another run: read it again
	}
	end, err := w.catchUp(f, info.Size())
	if err != nil {
		return err
	}
	if end < info.Size() {
		// A line cut short by a writer killed while writing.
		if err := f.Truncate(end); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	w.mu.Lock()
	for _, p := range w.pending {
		if w.states[p.task] == finished {
			continue // another process got there first
		}
		buf.Write(p.data)
		w.states[p.task] = p.state
	}
	w.mu.Unlock()
	if _, err := f.WriteAt(buf.Bytes(), end); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	w.info, w.off = info, end+int64(buf.Len())
	w.pending = w.pending[:0]
	w.last = time.Now()
	return nil
}

// catchUp reads the complete lines of f from w.off to size, marking their
// tasks, and returns the end of the last complete line.
func (w *shardWriter) catchUp(f *os.File, size int64) (int64, error) {
	if w.off >= size {
		return w.off, nil
	}
	if w.r == nil {
		w.r = bufio.NewReaderSize(nil, maxLine)
	}
	w.r.Reset(io.NewSectionReader(f, w.off, size-w.off))
	end := w.off
	for {
		b, err := readLine(w.r)
		if err == io.EOF {
			return end, nil
		}
		if err != nil {
			return 0, fmt.Errorf("sweep: %s: %w", w.path, err)
		}
		var h header
		if err := json.Unmarshal(b, &h); err != nil || h.Task < 0 || h.Task >= len(w.states) {
			return 0, fmt.Errorf("sweep: %s: a line at byte %d is not a result of this study", w.path, end)
		}
		w.mu.Lock()
		w.states[h.Task] = max(w.states[h.Task], h.state())
		w.mu.Unlock()
		end += int64(len(b))
	}
}
