package scenario_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/reschedule"

	"github.com/ckpt-markov/markov/scenario"
)

func samePolicy(p, q scenario.Policy) bool {
	return p.Kind == q.Kind && p.Processors == q.Processors && slices.Equal(p.Explicit, q.Explicit)
}

func TestParsePolicy(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want scenario.Policy
	}{
		{"greedy", scenario.Policy{Kind: scenario.Greedy}},
		{"GREEDY", scenario.Policy{Kind: scenario.Greedy}},
		{" greedy ", scenario.Policy{Kind: scenario.Greedy}},
		{"pb", scenario.Policy{Kind: scenario.PerformanceBased}},
		{"performance", scenario.Policy{Kind: scenario.PerformanceBased}},
		{"moldable:16", scenario.Policy{Kind: scenario.Moldable, Processors: 16}},
		{"Moldable:1", scenario.Policy{Kind: scenario.Moldable, Processors: 1}},
		{"vector:0,2,3", scenario.Policy{Kind: scenario.Explicit, Explicit: []int{0, 2, 3}}},
		{"vector:1, 1 ,3", scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 1, 3}}},
		{"vector:1", scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1}}},
	} {
		got, err := scenario.ParsePolicy(tc.in)
		if err != nil || !samePolicy(got, tc.want) {
			t.Errorf("ParsePolicy(%q) = %+v, %v, want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "random", "greedy:2", "pb:1", "moldable", "moldable:", "moldable:x", "moldable:1.5", "vector:", "vector:1,,2", "vector:1,x", "moldable:0", "moldable:-3"} {
		_, err := scenario.ParsePolicy(in)
		wantErr(t, err, "policy", "")
	}
}

// TestParsePolicyInnerSpace fails on the current code: ParsePolicy trims
// the spaces around vector entries ("vector: 1, 2" is accepted) but not
// around the moldable count, so "moldable: 16" is rejected.
func TestParsePolicyInnerSpace(t *testing.T) {
	got, err := scenario.ParsePolicy("moldable: 16")
	if want := (scenario.Policy{Kind: scenario.Moldable, Processors: 16}); err != nil || !samePolicy(got, want) {
		t.Errorf(`ParsePolicy("moldable: 16") = %+v, %v, want %+v`, got, err, want)
	}
}

// TestPolicyStringRoundTrip checks that ParsePolicy reads what String writes.
func TestPolicyStringRoundTrip(t *testing.T) {
	for _, p := range []scenario.Policy{
		{Kind: scenario.Greedy},
		{Kind: scenario.PerformanceBased},
		{Kind: scenario.Moldable, Processors: 1},
		{Kind: scenario.Moldable, Processors: 512},
		{Kind: scenario.Explicit, Explicit: []int{1}},
		{Kind: scenario.Explicit, Explicit: []int{0, 2, 2, 4}},
	} {
		s := p.String()
		q, err := scenario.ParsePolicy(s)
		if err != nil || !samePolicy(p, q) {
			t.Errorf("%+v → %q → %+v, %v", p, s, q, err)
		}
	}
	if s := (scenario.Policy{Kind: 9}).String(); s != "PolicyKind(9)" {
		t.Errorf("unknown kind: String() = %q", s)
	}
	for p, want := range map[scenario.PolicyKind]string{scenario.Greedy: "greedy", scenario.PerformanceBased: "pb"} {
		if got := (scenario.Policy{Kind: p}).String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

// TestPolicyVector checks each kind against its definition (package
// reschedule documentation) on hand-made inputs.
func TestPolicyVector(t *testing.T) {
	w := []float64{1, 3, 2, 3}
	for _, tc := range []struct {
		pol  scenario.Policy
		want []int
	}{
		{scenario.Policy{Kind: scenario.Greedy}, []int{1, 2, 3, 4}},
		{scenario.Policy{Kind: scenario.PerformanceBased}, []int{1, 2, 2, 2}}, // ω(2) = ω(4): tie to the smaller
		{scenario.Policy{Kind: scenario.Moldable, Processors: 3}, []int{0, 0, 3, 3}},
		{scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1, 0, 3, 2}}, []int{1, 0, 3, 2}},
		// AB: every processor fails at the one instant 5, so F(a) = 1 and
		// r(n) = argmin_{a ≤ n} 1/ω(a), ties to the larger: ω(4) = ω(2).
		{scenario.Policy{Kind: scenario.AvailabilityBased}, []int{1, 2, 2, 4}},
		// A resolved AB or optimal policy keeps its vector.
		{scenario.Policy{Kind: scenario.AvailabilityBased, Explicit: []int{1, 1, 1, 1}}, []int{1, 1, 1, 1}},
		{scenario.Policy{Kind: scenario.Optimal, Explicit: []int{0, 2, 2, 2}}, []int{0, 2, 2, 2}},
	} {
		v, err := tc.pol.Vector(scenario.PolicyInputs{N: 4, WorkRate: w, Failures: [][]float64{{5}, {5}, {5}, {5}}})
		if err != nil || !slices.Equal(v, tc.want) {
			t.Errorf("%v: Vector = %v, %v, want %v", tc.pol, v, err, tc.want)
		}
	}
	for _, tc := range []struct {
		pol           scenario.Policy
		n             int
		w             []float64
		field, phrase string
	}{
		{scenario.Policy{Kind: scenario.PerformanceBased}, 3, w, "application.work_rate", "has 4 entries, want 3"},
		{scenario.Policy{Kind: scenario.PerformanceBased}, 4, []float64{0, 0, 0, 0}, "policy", "zero"},
		{scenario.Policy{Kind: scenario.Explicit, Explicit: []int{1}}, 4, w, "policy.vector", "has 1 entries, want 4"},
		{scenario.Policy{Kind: scenario.Explicit, Explicit: []int{2, 2, 2, 2}}, 4, w, "policy", "r(1) = 2"},
		{scenario.Policy{Kind: scenario.Moldable, Processors: 5}, 4, w, "policy", "outside [1, 4]"},
		{scenario.Policy{Kind: scenario.Greedy}, 0, nil, "policy", "processors = 0"},
		{scenario.Policy{Kind: 9}, 4, w, "policy", "unknown policy kind 9"},
		{scenario.Policy{Kind: scenario.AvailabilityBased}, 4, w, "policy", "needs a failure history"},
		{scenario.Policy{Kind: scenario.Optimal}, 4, w, "policy", "comes from its solver"},
		{scenario.Policy{Kind: scenario.Optimal, Explicit: []int{1, 2}}, 4, w, "policy.vector", "has 2 entries, want 4"},
	} {
		_, err := tc.pol.Vector(scenario.PolicyInputs{N: tc.n, WorkRate: tc.w})
		wantErr(t, err, tc.field, tc.phrase)
	}
}

// TestPolicyVectorHistorySize checks that an availability-based policy
// rejects a history of the wrong number of processors.
func TestPolicyVectorHistorySize(t *testing.T) {
	_, err := scenario.Policy{Kind: scenario.AvailabilityBased}.Vector(scenario.PolicyInputs{
		N: 3, WorkRate: []float64{1, 2, 3}, Failures: [][]float64{{1}, {2}},
	})
	wantErr(t, err, "policy", "failure history has 2 processors, want 3")
}

// TestParsePolicyAllKinds fails on the old code, whose policy type could
// not name the availability-based or optimal policies.
func TestParsePolicyAllKinds(t *testing.T) {
	for in, want := range map[string]scenario.Policy{
		"ab":           {Kind: scenario.AvailabilityBased},
		"Availability": {Kind: scenario.AvailabilityBased},
		"optimal":      {Kind: scenario.Optimal},
	} {
		got, err := scenario.ParsePolicy(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParsePolicy(%q) = %+v, %v, want %+v", in, got, err, want)
		}
		if got.String() != strings.ToLower(in) && in != "Availability" {
			t.Errorf("%q: String() = %q", in, got.String())
		}
	}
	for _, in := range []string{"ab:1", "optimal:3"} {
		_, err := scenario.ParsePolicy(in)
		wantErr(t, err, "policy", "")
	}
}

// TestSplitPolicies fails on the old code, which split --policies at every
// comma and so broke "vector:1,2,3" into "vector:1", "2", "3".
func TestSplitPolicies(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"greedy", []string{"greedy"}},
		{"greedy,pb,ab", []string{"greedy", "pb", "ab"}},
		{"vector:1,2,3", []string{"vector:1,2,3"}},
		{"greedy,vector:1,2,3,moldable:2,vector:0, 2,pb", []string{"greedy", "vector:1,2,3", "moldable:2", "vector:0,2", "pb"}},
		{"greedy,table:1-2: 0, 3-6: n; p=3: 4-6: 3, 6: 5,pb", []string{"greedy", "table:1-2: 0, 3-6: n; p=3: 4-6: 3, 6: 5", "pb"}},
	} {
		got, err := scenario.SplitPolicies(tc.in)
		if err != nil {
			t.Errorf("SplitPolicies(%q): %v", tc.in, err)
			continue
		}
		names := make([]string, len(got))
		for i, p := range got {
			names[i] = p.String()
		}
		if !slices.Equal(names, tc.want) {
			t.Errorf("SplitPolicies(%q) = %q, want %q", tc.in, names, tc.want)
		}
	}
	for _, in := range []string{"", "greedy,", "greedy,,pb", "vector:", "greedy,best"} {
		if _, err := scenario.SplitPolicies(in); err == nil {
			t.Errorf("SplitPolicies(%q) accepted", in)
		}
	}
}

// TestScenarioPolicyAgrees fails on the old code, whose Validate accepted a
// scenario whose rescheduling vector is not the one its policy gives.
func TestScenarioPolicyAgrees(t *testing.T) {
	sys := scenario.System{Processors: 3, MTTF: 100, MTTR: 10}
	s, err := scenario.New(sys, toyApp(), scenario.Policy{Kind: scenario.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	c := *s
	c.Reschedule = []int{1, 1, 1}
	wantErr(t, c.Validate(), "policy", "disagrees with the policy greedy")
	c = *s
	c.Policy = scenario.Policy{Kind: scenario.Moldable, Processors: 1}
	wantErr(t, c.Validate(), "policy", "disagrees with the policy moldable:1")
	// An unresolved availability-based policy cannot enter a scenario; a
	// resolved one can, and must agree with the vector.
	_, err = scenario.New(sys, toyApp(), scenario.Policy{Kind: scenario.AvailabilityBased})
	wantErr(t, err, "policy", "failure history")
	ab := scenario.Policy{Kind: scenario.AvailabilityBased}.Resolved([]int{1, 1, 3})
	s, err = scenario.New(sys, toyApp(), ab)
	if err != nil || !slices.Equal(s.Reschedule, reschedule.Vector{1, 1, 3}) || s.Policy.String() != "ab" {
		t.Fatalf("resolved AB: %+v, %v", s, err)
	}
	c = *s
	c.Reschedule = []int{1, 2, 3}
	wantErr(t, c.Validate(), "policy", "disagrees with the policy ab (r(2) = 2, the policy gives 1)")
}
