package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/reschedule"
)

// policyOptions are the flags of markov policy.
type policyOptions struct {
	env      *env
	Scenario scenarioOptions
	Output   outputOptions
	Optimal  optimalOptions
}

// policyJSON is the --json output of markov policy.
type policyJSON struct {
	Scenario   scenarioJSON `json:"scenario"`
	Processors int          `json:"processors"`
	Policy     string       `json:"policy"`
	// Vector is r(1..N): Vector[n-1] = r(n).
	Vector []int `json:"vector"`
	// Runs is the compact form, as "1-15: 0, 16-128: 16".
	Runs string `json:"runs"`
}

func newPolicyCmd(e *env) *cobra.Command {
	opts := &policyOptions{env: e}
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Print the rescheduling vector r(n) of the scenario's policy",
		Long: `Print the rescheduling vector r(1..N): after a failure that leaves n
processors functional, the application restarts on r(n) of them, or waits for
repairs when r(n) = 0.

The vector is printed compactly as runs of n: "1-15: 0, 16-128: 16" means
r(n) = 0 for n = 1..15 and 16 for n = 16..128; "1-128: n" means r(n) = n.

Policies (--policy): greedy (r(n) = n), pb (performance based: the count
a ≤ n with the largest work rate ω(a)), moldable:A (A processors, waiting
below A), vector:r1,...,rN (explicit). The availability-based policy (ab)
needs a failure history: it runs on traces, in markov evaluate --policies ab.
optimal computes the best vector and its intervals (docs/optimal-policy.md)
and writes, with --json, a "policy" string that --policy reads back and a
"scenario_policy" object for a scenario file, with I* and I(a).
A --policy that does not fit the scenario (a vector of the wrong length,
moldable:A with A > N) is a command-line error (exit status 2).`,
		Example: `  markov policy
  markov policy --policy pb --app cg --processors 64
  markov policy --policy moldable:16 --json`,
		Args: cobra.NoArgs,
		RunE: e.runE(func(ctx context.Context, cmd *cobra.Command) error {
			return runPolicy(ctx, cmd, opts)
		}),
	}
	opts.Scenario.register(cmd)
	opts.Output.register(cmd)
	opts.Optimal.register(cmd)
	return cmd
}

func runPolicy(ctx context.Context, cmd *cobra.Command, opts *policyOptions) error {
	if wantsOptimal(opts.Scenario.Policy) {
		return runPolicyOptimal(ctx, cmd, opts)
	}
	if err := opts.Optimal.unused(); err != nil {
		return err
	}
	info, err := opts.Scenario.load(cmd)
	if err != nil {
		return err
	}
	return opts.env.render(opts.Output, policyReport{info})
}

// policyReport is the result of markov policy: the scenario's vector.
type policyReport struct{ info scenarioInfo }

func (p policyReport) JSON() any {
	r := p.info.sc.Reschedule
	return policyJSON{
		Scenario:   p.info.json(),
		Processors: r.N(),
		Policy:     p.info.sc.Policy.String(),
		Vector:     []int(r),
		Runs:       runs(r),
	}
}

func (p policyReport) CSV() ([]string, [][]string) {
	r := p.info.sc.Reschedule
	rows := make([][]string, r.N())
	for n := 1; n <= r.N(); n++ {
		rows[n-1] = []string{strconv.Itoa(n), strconv.Itoa(r.At(n))}
	}
	return []string{"n", "r"}, rows
}

func (p policyReport) Text(w io.Writer) error {
	_, err := fmt.Fprintf(w, "Scenario  %s\nr(n)      %s\n", p.info.describe(), runs(p.info.sc.Reschedule))
	return err
}

// runs writes a rescheduling vector compactly as runs of n on which r(n) is
// constant ("16-128: 16") or follows n ("1-128: n"), taking the longer of the
// two at each step (the constant one on ties).
func runs(r reschedule.Vector) string {
	var parts []string
	for n := 1; n <= r.N(); {
		end, label := n, strconv.Itoa(r.At(n))
		for end < r.N() && r.At(end+1) == r.At(n) {
			end++
		}
		ident := n
		for ident < r.N() && r.At(n) == n && r.At(ident+1) == ident+1 {
			ident++
		}
		if ident > end {
			end, label = ident, "n"
		}
		if end == n {
			parts = append(parts, fmt.Sprintf("%d: %s", n, label))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d: %s", n, end, label))
		}
		n = end + 1
	}
	return strings.Join(parts, ", ")
}
