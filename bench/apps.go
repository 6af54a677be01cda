package bench

import (
	"fmt"
	"math"
	"strings"

	"github.com/ckpt-markov/markov/internal/quote"
	"github.com/ckpt-markov/markov/scenario"
)

// MaxProcessors is the largest processor count the applications are
// described for.
const MaxProcessors = 512

// App is one of the benchmark applications.
type App int

const (
	// QR is the ScaLAPACK QR least-squares solver (PDGELS).
	QR App = iota
	// CG is the PETSc conjugate-gradient solver.
	CG
	// MD is the Lennard-Jones molecular dynamics code.
	MD
)

// uwtShare is the share of the failure-free work rate ω(128) that the
// paper's best UWT on 128 processors is taken to be (Table III: "within
// 4–11 %"; the middle of that band).
const uwtShare = 0.93

// params are the curve parameters of one application; see the package
// documentation for the formulas and where each number comes from.
type params struct {
	name, description string

	// Work rate ω(a) = k·a/(1 + α(a−1) + β a ln a), β = (1−α)/peak,
	// k such that uwt128 = uwtShare·ω(128).
	alpha, peak, uwt128 float64

	// Overhead C(a) = mix(cMin, cMax, x(a)^cGamma) (Table I).
	cMin, cMax, cGamma float64

	// Recovery R(p, a) = mix(rMin, rMax, s(p, a)^rGamma) (Table I).
	rMin, rMax, rGamma float64
}

var apps = [...]params{
	QR: {
		name:        "qr",
		description: "ScaLAPACK PDGELS: over-determined real least squares by QR factorisation, 2-D block-cyclic matrix; large checkpoints, work rate saturating from about 64 processors",
		alpha:       0.08, peak: 200, uwt128: 10.47,
		cMin: 91.90, cMax: 117.28, cGamma: 2.48654517661104,
		rMin: 8.74, rMax: 32.97, rGamma: 1.23491949246185,
	},
	CG: {
		name:        "cg",
		description: "PETSc conjugate gradient on a symmetric positive definite system; vector checkpoints, least scalable (work rate peaks at 48 processors)",
		alpha:       0.1, peak: 48, uwt128: 0.88,
		cMin: 8.96, cMax: 9.75, cGamma: 0.338000656073941,
		rMin: 8.89, rMax: 15.12, rGamma: 0.573901797692772,
	},
	MD: {
		name:        "md",
		description: "Lennard-Jones molecular dynamics, systolic ring algorithm; smallest checkpoints, nearly linear scaling",
		alpha:       0.0005, peak: 50000, uwt128: 19.72,
		cMin: 1.35, cMax: 2.70, cGamma: 1.75714340629791,
		rMin: 8.27, rMax: 17.05, rGamma: 0.432178333947754,
	},
}

// Names returns the names of the applications, in the paper's order:
// "qr", "cg", "md".
func Names() []string {
	names := make([]string, len(apps))
	for i, p := range apps {
		names[i] = p.name
	}
	return names
}

// Lookup returns the application with the given name (case-insensitive).
func Lookup(name string) (App, error) {
	for i, p := range apps {
		if strings.EqualFold(name, p.name) {
			return App(i), nil
		}
	}
	return 0, fmt.Errorf("bench: unknown application %s, want one of %s", quote.Value(name), strings.Join(Names(), ", "))
}

// Application returns the named application described for processor counts
// 1..n, 1 ≤ n ≤ MaxProcessors. Its signature fits
// scenario.ParseSettings.Applications.
func Application(name string, n int) (scenario.Application, error) {
	a, err := Lookup(name)
	if err != nil {
		return scenario.Application{}, err
	}
	return a.Application(n)
}

// String returns the name of the application, as Names lists it.
func (a App) String() string {
	if !a.valid() {
		return fmt.Sprintf("App(%d)", int(a))
	}
	return apps[a].name
}

// Description returns a one-line description of the application.
func (a App) Description() string {
	if !a.valid() {
		return ""
	}
	return apps[a].description
}

// Application returns the work rate ω(1..n), the checkpoint latency and
// overhead L(1..n) = C(1..n) and the n×n recovery matrix R(p, a) of the
// application, 1 ≤ n ≤ MaxProcessors. The vectors for n are the first n
// entries of those for MaxProcessors.
func (a App) Application(n int) (scenario.Application, error) {
	if !a.valid() {
		return scenario.Application{}, fmt.Errorf("bench: unknown application %d", int(a))
	}
	if n < 1 || n > MaxProcessors {
		return scenario.Application{}, fmt.Errorf("bench: %d processors outside [1, %d]", n, MaxProcessors)
	}
	p := &apps[a]
	k := p.scale()
	work := make([]float64, n)
	over := make([]float64, n)
	for i := range n {
		work[i] = k * p.speedup(i+1)
		over[i] = p.overhead(i + 1)
	}
	rec := make([][]float64, n)
	for old := range n {
		rec[old] = make([]float64, n)
		for i := range n {
			rec[old][i] = p.recovery(old+1, i+1)
		}
	}
	return scenario.Application{
		WorkRate: work,
		Latency:  append([]float64(nil), over...),
		Overhead: over,
		Recovery: scenario.RecoveryMatrix(rec),
	}, nil
}

func (a App) valid() bool { return a >= 0 && int(a) < len(apps) }

// speedup returns a/(1 + α(a−1) + β a ln a).
func (p *params) speedup(a int) float64 {
	x := float64(a)
	beta := (1 - p.alpha) / p.peak
	return x / (1 + p.alpha*(x-1) + beta*x*math.Log(x))
}

// scale returns k, the work rate on one processor.
func (p *params) scale() float64 { return p.uwt128 / (uwtShare * p.speedup(128)) }

func (p *params) overhead(a int) float64 {
	return mix(p.cMin, p.cMax, math.Pow(unit(a), p.cGamma))
}

func (p *params) recovery(old, a int) float64 {
	s := (unit(a) + math.Abs(unit(old)-unit(a))) / 2
	return mix(p.rMin, p.rMax, math.Pow(s, p.rGamma))
}

// unit maps a = 1..MaxProcessors onto x(a) = (a−1)/(MaxProcessors−1) ∈ [0, 1].
func unit(a int) float64 { return float64(a-1) / (MaxProcessors - 1) }

// mix returns (1−t)·lo + t·hi, which is exactly lo at t = 0 and hi at t = 1.
func mix(lo, hi, t float64) float64 { return (1-t)*lo + t*hi }
