package cli

import "github.com/spf13/cobra"

// policyHelp is the help of --policy: the commands that solve the optimal
// policy list it, the others do not (they refuse it).
func policyHelp(withOptimal bool) string {
	h := "override the rescheduling `POLICY`: greedy, pb, moldable:A, vector:r1,...,rN or table:… (a decision table, docs/scenario.md)"
	if withOptimal {
		h = "override the rescheduling `POLICY`: greedy, pb, moldable:A, vector:r1,...,rN, table:… (a decision table, docs/scenario.md), or optimal (computed by package optimal)"
	}
	return h
}

// handMadePolicies lists in the help of cmd's --policy only the policies
// it accepts: not the optimal one.
func handMadePolicies(cmd *cobra.Command) {
	cmd.Flags().Lookup("policy").Usage = policyHelp(false)
}
