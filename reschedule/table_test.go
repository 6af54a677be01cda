package reschedule_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/reschedule"
)

// randomRows returns a default row and rows for some checkpoint counts,
// each a valid vector, on n processors: the oracle the tables are built
// from and compared with state by state.
func randomRows(rng *rand.Rand, n int) (reschedule.Vector, []int, []reschedule.Vector) {
	row := func() reschedule.Vector {
		v := make(reschedule.Vector, n)
		for k := 1; k <= n; k++ {
			switch rng.IntN(3) {
			case 0:
				v[k-1] = k
			case 1:
				if k > 1 {
					v[k-1] = v[k-2]
				}
			default:
				v[k-1] = rng.IntN(k + 1)
			}
		}
		v[n-1] = n // runs somewhere
		return v
	}
	def := row()
	var ps []int
	var rows []reschedule.Vector
	for p := 1; p <= n; p++ {
		switch rng.IntN(3) {
		case 0:
			ps, rows = append(ps, p), append(rows, row())
		case 1:
			ps, rows = append(ps, p), append(rows, slices.Clone(def))
		}
	}
	return def, ps, rows
}

func TestTableRowsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{1, 2, 3, 7, 16, 40} {
		for range 20 {
			def, ps, rows := randomRows(rng, n)
			tab, err := reschedule.NewTableRows(def, ps, rows)
			if err != nil {
				t.Fatalf("N = %d: %v", n, err)
			}
			want := map[int]reschedule.Vector{0: def}
			differs := false
			for i, p := range ps {
				want[p] = rows[i]
				differs = differs || !slices.Equal(rows[i], def)
			}
			for p := 0; p <= n+1; p++ {
				w, ok := want[p]
				if !ok {
					w = def
				}
				for k := 1; k <= n; k++ {
					if got := tab.Action(p, k); got != w[k-1] {
						t.Fatalf("N = %d: Action(%d, %d) = %d, want %d (table %s)", n, p, k, got, w[k-1], tab)
					}
				}
			}
			if tab.DependsOnOld() != differs {
				t.Errorf("N = %d: DependsOnOld = %v, want %v (table %s)", n, tab.DependsOnOld(), differs, tab)
			}
			back, err := reschedule.ParseTable(tab.String(), n)
			if err != nil {
				t.Fatalf("ParseTable(%q): %v", tab, err)
			}
			if !back.Equal(tab) || !slices.Equal(back.Entries(), tab.Entries()) {
				t.Errorf("ParseTable(%q) = %q", tab, back)
			}
			v, err := tab.Vector()
			if differs != (err != nil) || err == nil && !slices.Equal(v, def) {
				t.Errorf("Vector() = %v, %v; want %v (depends on p: %v)", v, err, def, differs)
			}
		}
	}
}

func TestTableForms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
		old  bool
	}{
		{"1-4: n", 4, "1-4: n", false},
		{" 1-2 : 0 , 3-4: 3 ; p=3: 4: 4", 4, "1-2: 0, 3-4: 3; p=3: 4: 4", true},
		{"1-4: n; p=2: 3: 3", 4, "1-4: n; p=2: 3: 3", false}, // n = 3 there anyway
		{"1: 1, 2: 2", 2, "1: 1, 2: 2", false},
	} {
		tab, err := reschedule.ParseTable(tc.in, tc.n)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if tab.String() != tc.want || tab.DependsOnOld() != tc.old {
			t.Errorf("%q: %q, depends on p %v; want %q, %v", tc.in, tab, tab.DependsOnOld(), tc.want, tc.old)
		}
	}
}

func TestTableErrors(t *testing.T) {
	for _, tc := range []struct {
		in     string
		n      int
		phrase string
	}{
		{"1-3: n", 4, "no action for n = 4..4"},
		{"2-4: n", 4, "no action for n = 1..1"},
		{"1-2: 0, 2-4: 2", 4, "overlaps"},
		{"1-4: 0", 4, "never start"},
		{"1-4: 2", 4, "a = 2 outside [0, 1]"},
		{"1-5: n", 4, "want 1 ≤ lo ≤ hi ≤ 4"},
		{"3-1: n", 4, "want 1 ≤ lo ≤ hi ≤ 4"},
		{"1-4: n; p=5: 1: 1", 4, "p = 5 outside [1, 4]"},
		{"1-4: n; p=2: 2-3: 2, 3: 3", 4, "overlaps"},
		{"1-4: n; q=2: 1: 1", 4, "does not start with \"p=P:\""},
		{"1-4: n; p=0: 1: 1", 4, "want a processor count ≥ 1"},
		{"1-4: x", 4, "action \"x\""},
		{"1-4 n", 4, "want lo-hi: a"},
		{"a-4: n", 4, "\"a\" is not a processor count"},
		{"1-4: n", 0, "processors = 0"},
		{strings.Repeat("1: 1,", reschedule.MaxTableEntries), 4, "more than"},
	} {
		_, err := reschedule.ParseTable(tc.in, tc.n)
		wantErr(t, err, tc.phrase)
		if err != nil && len(err.Error()) > 200 {
			t.Errorf("error of %d bytes: %.80s…", len(err.Error()), err)
		}
	}
	if _, err := reschedule.NewTable(3, []reschedule.Entry{{Lo: 1, Hi: 3, A: reschedule.AllUp}, {P: 1, Lo: 2, Hi: 2, A: 3}}); err == nil {
		t.Error("a = 3 > lo = 2 accepted")
	} else if te, ok := err.(*reschedule.TableError); !ok || te.Entry != 1 {
		t.Errorf("error %#v, want a *TableError naming entry 1", err)
	}
}

func FuzzParseTable(f *testing.F) {
	for _, s := range []string{"1-4: n", "1-2: 0, 3-4: 3; p=3: 4: 4", "1: 1", "1-4: n; p=2: 3: 3", ";", "1-4:"} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n > 1<<12 {
			n = n % (1 << 12)
		}
		tab, err := reschedule.ParseTable(s, n)
		if err != nil {
			return
		}
		// A table read back from its form gives the same action everywhere.
		back, err := reschedule.ParseTable(tab.String(), n)
		if err != nil || !back.Equal(tab) {
			t.Fatalf("%q read back from %q: %v", tab, s, err)
		}
		for k := 1; k <= n; k++ {
			if a := tab.Action(0, k); a < 0 || a > k {
				t.Fatalf("Action(0, %d) = %d", k, a)
			}
		}
	})
}

// TestTableDiffersLarge: a default row of N single-count entries (a = n
// written one count at a time) and N rows each overriding every count
// with a = n, equal to it: DependsOnOld is false. Comparing every range of
// every row with every default range would take N² = 2³² steps; the
// merged default row takes O(N).
func TestTableDiffersLarge(t *testing.T) {
	const n = 1 << 16
	entries := make([]reschedule.Entry, 0, 2*n)
	for k := 1; k <= n; k++ {
		entries = append(entries, reschedule.Entry{Lo: k, Hi: k, A: k})
	}
	for p := 1; p <= n; p++ {
		entries = append(entries, reschedule.Entry{P: p, Lo: 1, Hi: n, A: reschedule.AllUp})
	}
	tab, err := reschedule.NewTable(n, entries)
	if err != nil {
		t.Fatal(err)
	}
	if tab.DependsOnOld() {
		t.Error("a table whose rows all equal the default depends on p")
	}
	// One count changed in the last row: now it does.
	entries[len(entries)-1] = reschedule.Entry{P: n, Lo: 1, Hi: n - 1, A: reschedule.AllUp}
	entries = append(entries, reschedule.Entry{P: n, Lo: n, Hi: n, A: n - 1})
	if tab, err = reschedule.NewTable(n, entries); err != nil || !tab.DependsOnOld() {
		t.Errorf("a row that differs at n = N: depends on p %v, %v", tab != nil && tab.DependsOnOld(), err)
	}
}
