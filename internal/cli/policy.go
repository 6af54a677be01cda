package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ckpt-markov/markov/reschedule"
	"github.com/ckpt-markov/markov/scenario"
)

// policyOptions are the flags of markov policy.
type policyOptions struct {
	env      *env
	Scenario scenarioOptions
	Output   outputOptions
	Optimal  optimalOptions
	// Workers is the optimal solver's worker count (--workers; 0: one
	// per CPU), only with --policy optimal.
	Workers int
}

// policyJSON is the --json output of markov policy.
type policyJSON struct {
	Scenario   scenarioJSON `json:"scenario"`
	Processors int          `json:"processors"`
	Policy     string       `json:"policy"`
	// Vector is r(1..N): Vector[n-1] = r(n).
	Vector []int `json:"vector,omitempty"`
	// Runs is the compact form, as "1-15: 0, 16-128: 16"; for a decision
	// table its range form, as "1-15: 0, 16-128: n; p=16: 20-30: 16".
	Runs string `json:"runs"`
	// Table holds a decision table's entries (then Vector is absent), in
	// the form of a scenario file's {"table": [...]}.
	Table []scenario.TableEntry `json:"table,omitempty"`
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
below A), vector:r1,...,rN (explicit), table:… (a decision table, below).
The availability-based policy (ab) needs a failure history: it runs on
traces, in markov evaluate --policies ab. optimal computes the best policy
and its intervals (docs/optimal-policy.md) and writes, with --json, a
"policy" string that --policy reads back and a "scenario_policy" object for
a scenario file, with I* and I(a).

When the recovery cost R(p, a) depends on the count p of the last
checkpoint, the optimal action may depend on p too: the policy is then a
decision table r(p, n), printed in range form as
"1: 0, 2-4: n, 5-6: 4; p=3: 4-6: 3": the default row, then the rows of the
counts p that differ from it (docs/scenario.md, "Decision tables").
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
	cmd.Flags().IntVar(&opts.Workers, "workers", 0, "with --policy optimal: goroutines solving the policy (0: one per CPU; the output is the same whatever the count)")
	return cmd
}

func runPolicy(ctx context.Context, cmd *cobra.Command, opts *policyOptions) error {
	if wantsOptimal(opts.Scenario.Policy) {
		return runPolicyOptimal(ctx, cmd, opts)
	}
	if err := opts.Optimal.unused(); err != nil {
		return err
	}
	if cmd.Flags().Changed("workers") {
		return flagError("workers", "only with --policy optimal")
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
	out := policyJSON{
		Scenario:   p.info.json(),
		Processors: r.N(),
		Policy:     p.info.sc.Policy.String(),
		Vector:     []int(r),
		Runs:       runs(r),
	}
	if t := p.info.sc.Table; t != nil {
		out.Vector, out.Runs, out.Table = nil, t.String(), scenario.TableJSON(t.Entries())
	}
	return out
}

func (p policyReport) CSV() ([]string, [][]string) {
	if t := p.info.sc.Table; t != nil {
		return tableCSV(t)
	}
	r := p.info.sc.Reschedule
	rows := make([][]string, r.N())
	for n := 1; n <= r.N(); n++ {
		rows[n-1] = []string{strconv.Itoa(n), strconv.Itoa(r.At(n))}
	}
	return []string{"n", "r"}, rows
}

// tableCSV writes a decision table's actions: the default row (p empty)
// for every n, then each checkpoint count p's actions where they differ.
func tableCSV(t *reschedule.Table) ([]string, [][]string) {
	var rows [][]string
	for _, q := range append([]int{0}, t.Olds()...) {
		pc := ""
		if q > 0 {
			pc = strconv.Itoa(q)
		}
		for n := 1; n <= t.N(); n++ {
			if a := t.Action(q, n); q == 0 || a != t.Action(0, n) {
				rows = append(rows, []string{pc, strconv.Itoa(n), strconv.Itoa(a)})
			}
		}
	}
	return []string{"p", "n", "r"}, rows
}

func (p policyReport) Text(w io.Writer) error {
	t := newTable(w)
	t.row("Scenario", p.info.describe())
	tableRows(t, p.info.sc)
	return t.flush()
}

// tableRows writes the scenario's policy: r(n) in runs, or a decision
// table in its range form, one row of the table per line (the default
// row, then the checkpoint counts p that differ from it).
func tableRows(t *table, sc *scenario.Scenario) {
	if sc.Table == nil {
		t.row("r(n)", runs(sc.Reschedule))
		return
	}
	decisionTableRows(t, "r(p, n)", sc.Table)
}

// decisionTableRows writes a decision table in its range form under
// label, one row of the table per line: the one renderer of tables in
// text output.
func decisionTableRows(t *table, label string, tb *reschedule.Table) {
	rows := strings.Split(tb.String(), "; ")
	t.row(label, rows[0]+"  (p not listed below)")
	for _, r := range rows[1:] {
		t.row("", r)
	}
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
