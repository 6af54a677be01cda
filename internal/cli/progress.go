package cli

import (
	"fmt"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progressDelay is how long work runs before a progress indicator appears:
// quick commands print no decoration at all.
var progressDelay = time.Second

// progress is a progress indicator on stderr that appears only when stderr
// is a terminal and the work lasts longer than progressDelay. Its methods
// do nothing on a nil *progress.
type progress struct {
	mu    sync.Mutex
	timer *time.Timer
	bar   *progressbar.ProgressBar
	done  int
	over  bool
}

// startProgress starts tracking total steps of work (total ≤ 0: an
// indeterminate spinner) described by desc. It returns nil, a valid no-op
// indicator, when stderr is not a terminal.
func (e *env) startProgress(desc string, total int) *progress {
	if !e.tty {
		return nil
	}
	if total <= 0 {
		total = -1
	}
	p := &progress{}
	p.timer = time.AfterFunc(progressDelay, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.over {
			return
		}
		opts := []progressbar.Option{
			progressbar.OptionSetWriter(e.errOut),
			progressbar.OptionSetDescription(desc),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100 * time.Millisecond),
			progressbar.OptionSetRenderBlankState(true),
		}
		if total > 0 {
			opts = append(opts, progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true))
		} else {
			opts = append(opts, progressbar.OptionSetPredictTime(false))
		}
		p.bar = progressbar.NewOptions(total, opts...)
		if p.done > 0 {
			_ = p.bar.Add(p.done)
		}
	})
	return p
}

// add records n more steps done.
func (p *progress) add(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	if p.bar != nil {
		_ = p.bar.Add(n)
	}
}

// finish removes the indicator.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.timer.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.over = true
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
		_ = p.bar.Exit()
	}
}

// progressLineEvery is the least time between two progress lines written
// off a terminal.
const progressLineEvery = 100 * time.Millisecond

// stepProgress reports work of many steps, whose total is known from the
// first step on: on a terminal a bar described by desc (startProgress);
// otherwise, for batch logs, a line "cmd: done of total unit done" on
// stderr a step, so that a log shows the pace before the work ends, but
// at most ten a second (and the last) when steps take milliseconds. Call
// finish when the work ends.
func (e *env) stepProgress(desc, cmd, unit string) (step func(done, total int), finish func()) {
	if !e.tty {
		var last time.Time
		return func(done, total int) {
			if done == total || time.Since(last) >= progressLineEvery {
				fmt.Fprintf(e.errOut, "%s: %d of %d %s done\n", cmd, done, total, unit)
				last = time.Now()
			}
		}, func() {}
	}
	bar := e.startProgress(desc, 0)
	return func(done, total int) {
		if done == 1 {
			// The total is known now: a bar instead of the spinner.
			bar.finish()
			bar = e.startProgress(desc, total)
		}
		bar.add(1)
	}, func() { bar.finish() }
}
