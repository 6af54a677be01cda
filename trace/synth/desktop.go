package synth

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ckpt-markov/markov/law"
)

// MaxClasses bounds Config.Classes.
const MaxClasses = 64

// Class is a class of nodes of a heterogeneous pool (Config.Classes).
type Class struct {
	Name   string  // a label, for the caller
	Share  float64 // weight of the class among the nodes, finite and > 0
	Up     law.Law // up times of the class's nodes (before the rate multiplier)
	Repair law.Law // repair (unavailability) times of the class's nodes
}

// classes returns the class of each of the n nodes of the weights cs:
// smooth weighted round robin, so that every class holds its share of the
// nodes within one node, at every prefix of the node order as well (no
// block of one class at the low indices that a lowest-index rule would
// favour). Deterministic: it draws nothing.
func classes(cs []Class, n int) []int {
	total := 0.0
	for _, c := range cs {
		total += c.Share
	}
	cur := make([]float64, len(cs))
	out := make([]int, n)
	for i := range out {
		best := 0
		for k, c := range cs {
			cur[k] += c.Share / total
			if cur[k] > cur[best] {
				best = k
			}
		}
		cur[best]--
		out[i] = best
	}
	return out
}

func (c *Config) checkClasses() error {
	if c.Up != nil || c.Repair != nil {
		return errors.New("synth: Config.Up and Config.Repair are set with Config.Classes, want them nil (each class has its laws)")
	}
	if len(c.Classes) > MaxClasses {
		return fmt.Errorf("synth: Config.Classes has %d classes, want at most %d", len(c.Classes), MaxClasses)
	}
	for k, cl := range c.Classes {
		if !(cl.Share > 0) || math.IsInf(cl.Share, 0) {
			return fmt.Errorf("synth: Config.Classes[%d].Share = %v, want a finite weight > 0", k, cl.Share)
		}
		if err := checkLaw(fmt.Sprintf("Classes[%d].Up", k), cl.Up); err != nil {
			return err
		}
		if err := checkLaw(fmt.Sprintf("Classes[%d].Repair", k), cl.Repair); err != nil {
			return err
		}
	}
	return nil
}

// The desktop-grid preset's published summaries (Kondo, Andrzejak and
// Anderson, Grid 2008, as quoted by Nguyen et al., "An execution
// environment for robust parallel computing on volunteer PC grids",
// section III, "Shared resource"; seed 002 of the toolkit's sources):
// volunteer nodes are available about 65 % of the time, about 35 % of
// them 99 % of the time or more, and their availability intervals have
// mean 20 h and median 8 h.
const (
	DesktopAvailability   = 0.65      // fraction of node time available
	DesktopStableShare    = 0.35      // share of nodes available ≥ 99 % of the time
	DesktopUpMean         = 20 * 3600 // mean availability interval, seconds
	DesktopUpMedian       = 8 * 3600  // median availability interval, seconds
	desktopStableAvailGap = 0.005     // a stable node is unavailable 0.5 % of the time
)

// DesktopGrid returns the configuration of the desktop-grid preset: a
// pool of volunteer hosts of nodes nodes over duration seconds, built
// from the published summaries above (docs/model.md, section 13).
//
// Availability intervals (up times) are log-normal with median m = 8 h
// and mean 20 h, the only two-parameter law among the families Javadi
// et al. fit (Weibull, log-normal, gamma) fixed by a mean and a median
// alone: μ = ln m, σ = sqrt(2·ln(20/8)) = 1.354. Two classes of hosts
// share that law and differ by their unavailability intervals
// (exponential, a choice of the preset: the quoted summary gives no
// unavailability law):
//
//   - "stable", 35 % of the hosts: mean unavailability 20 h·0.005/0.995
//     (6 min), so that a stable host is available 99.5 % of the time;
//   - "intermittent", 65 %: mean unavailability D such that the pool is
//     available 65 % of the time, 0.35·0.995 + 0.65·20/(20 + D) = 0.65,
//     D = 23.08 h.
//
// Hosts are assigned to the classes in proportion (classes), not drawn,
// so that every trace holds the published shares. The preset does not
// reproduce the quoted statement that about 60 % of hosts have a mean
// availability interval above 4 h: its hosts share one availability
// law, so nearly all do.
func DesktopGrid(nodes int, duration float64) Config {
	sigma := math.Sqrt(2 * math.Log(float64(DesktopUpMean)/DesktopUpMedian))
	up := distuv.LogNormal{Mu: math.Log(DesktopUpMedian), Sigma: sigma}
	stableDown := DesktopUpMean * desktopStableAvailGap / (1 - desktopStableAvailGap)
	pi := (DesktopAvailability - DesktopStableShare*(1-desktopStableAvailGap)) / (1 - DesktopStableShare)
	intermittentDown := DesktopUpMean * (1 - pi) / pi
	return Config{Nodes: nodes, Duration: duration, Classes: []Class{
		{Name: "stable", Share: DesktopStableShare, Up: up, Repair: distuv.Exponential{Rate: 1 / stableDown}},
		{Name: "intermittent", Share: 1 - DesktopStableShare, Up: up, Repair: distuv.Exponential{Rate: 1 / intermittentDown}},
	}}
}

// MeanCycle returns the mean up-plus-repair time of a node of multiplier
// 1, averaged over the classes by share, or NaN when a law
// has no finite mean the function knows (it knows gonum's Exponential,
// LogNormal, Weibull and Gamma): callers bound the expected outages
// nodes·duration/MeanCycle before generating.
func (c Config) MeanCycle() float64 {
	if len(c.Classes) == 0 {
		return lawMean(c.Up) + lawMean(c.Repair)
	}
	var total, m float64
	for _, cl := range c.Classes {
		total += cl.Share
		m += cl.Share * (lawMean(cl.Up) + lawMean(cl.Repair))
	}
	return m / total
}

func lawMean(l law.Law) float64 {
	switch d := l.(type) {
	case distuv.Exponential:
		return d.Mean()
	case distuv.LogNormal:
		return d.Mean()
	case distuv.Weibull:
		return d.Mean()
	case distuv.Gamma:
		return d.Mean()
	}
	return math.NaN()
}
