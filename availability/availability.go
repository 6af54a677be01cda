package availability

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/ckpt-markov/markov/internal/pool"
	"github.com/ckpt-markov/markov/scenario"
	"github.com/ckpt-markov/markov/uwt"
)

// Point is the model at one processor count a and interval I.
type Point struct {
	// Processors is a, the processors the application runs on.
	Processors int
	// Interval is the checkpoint interval I in seconds.
	Interval float64
	// Availability is A(a, I).
	Availability float64
	// UWT is ω(a)·A(a, I), the useful work per second.
	UWT float64
}

// RunTime returns the expected run time T_a / A of a job that needs
// failureFree seconds on a processors without failures.
func (p Point) RunTime(failureFree float64) float64 { return failureFree / p.Availability }

// Model returns the uwt model of the application running on exactly a of
// the system's processors.
func Model(ctx context.Context, sys scenario.System, app scenario.Application, a int, s *uwt.Settings) (*uwt.Model, error) {
	sc, err := scenario.New(sys, app, scenario.Policy{Kind: scenario.Moldable, Processors: a})
	if err != nil {
		return nil, err
	}
	return uwt.New(ctx, sc, s)
}

// Evaluate returns A(a, I) for the application on a processors.
func Evaluate(ctx context.Context, sys scenario.System, app scenario.Application, a int, interval float64, s *uwt.Settings) (Point, error) {
	m, err := Model(ctx, sys, app, a, s)
	if err != nil {
		return Point{}, err
	}
	r, err := m.Evaluate(ctx, interval)
	if err != nil {
		return Point{}, err
	}
	return Point{Processors: a, Interval: interval, Availability: r.Availability, UWT: r.UWT}, nil
}

// Optimal returns the interval I* that maximises A(a, I) for a fixed a.
func Optimal(ctx context.Context, sys scenario.System, app scenario.Application, a int, s *uwt.Settings, o *uwt.OptimizeSettings) (Point, error) {
	m, err := Model(ctx, sys, app, a, s)
	if err != nil {
		return Point{}, err
	}
	opt, err := m.Optimize(ctx, o)
	if err != nil {
		return Point{}, err
	}
	return Point{Processors: a, Interval: opt.Interval, Availability: opt.Result.Availability, UWT: opt.UWT}, nil
}

// Settings configures Best. A nil *Settings means every processor count
// 1..N with a work rate above zero, default model and search settings, and
// runtime.GOMAXPROCS(0) workers.
type Settings struct {
	// Processors lists the counts a to try; nil means all with ω(a) > 0.
	Processors []int
	// Model configures each uwt model (its Workers is set to 1: Best
	// parallelises over processor counts instead).
	Model *uwt.Settings
	// Optimize configures each interval search.
	Optimize *uwt.OptimizeSettings
	// Workers is the number of processor counts searched at once
	// (≤ 0: runtime.GOMAXPROCS(0)).
	Workers int
	// Progress, if not nil, is called after each processor count is
	// searched with the number done and the total, in the order of
	// Processors, from the calling goroutine.
	Progress func(done, total int)
}

// Search is the outcome of Best.
type Search struct {
	// Best is the pair (a, I) with the largest UWT.
	Best Point
	// Points holds the optimum for each processor count tried, in the
	// order of Settings.Processors.
	Points []Point
}

// Best searches the processor counts for the pair (a, I) that maximises
// ω(a)·A(a, I), that is, minimises the expected run time of a job.
// Results do not depend on Settings.Workers.
func Best(ctx context.Context, sys scenario.System, app scenario.Application, s *Settings) (Search, error) {
	if err := sys.Validate(); err != nil {
		return Search{}, err
	}
	if err := app.Validate(sys.Processors); err != nil {
		return Search{}, err
	}
	var set Settings
	if s != nil {
		set = *s
	}
	counts := set.Processors
	if counts == nil {
		for a := 1; a <= sys.Processors; a++ {
			if app.WorkRate[a-1] > 0 {
				counts = append(counts, a)
			}
		}
	}
	if len(counts) == 0 {
		return Search{}, errors.New("availability: no processor count to try")
	}
	ms := uwt.Settings{}
	if set.Model != nil {
		ms = *set.Model
	}
	ms.Workers = 1
	points := make([]Point, len(counts))
	err := pool.Map(ctx, len(counts), set.Workers, func(ctx context.Context, k int) (Point, error) {
		p, err := Optimal(ctx, sys, app, counts[k], &ms, set.Optimize)
		if err != nil {
			return p, fmt.Errorf("availability: a = %d: %w", counts[k], err)
		}
		return p, nil
	}, func(k int, p Point) error {
		points[k] = p
		if set.Progress != nil {
			set.Progress(k+1, len(counts))
		}
		return nil
	})
	if err != nil {
		return Search{}, err
	}
	best := Point{UWT: math.Inf(-1)}
	for _, p := range points {
		if p.UWT > best.UWT {
			best = p
		}
	}
	return Search{Best: best, Points: points}, nil
}
