package trace

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestReadGenericAccepts(t *testing.T) {
	in := "\ufeff# a log from somewhere, with a byte order mark and CRLF\r\n" +
		"  # nodes=3   end=1000 start=0  \r\n" +
		"\n" +
		"# node=2 start=100 end=900\n" +
		"#nodes are numbered from 0 (a plain comment)\n" +
		" node , down_start , down_end\n" +
		"1, 500, 600\n" +
		"0,10,20\n" +
		"1,550,650\n" +
		"2,50,150\n" +
		"0,30,30\n" +
		"0,1.5e2,2e2\n"
	want, err := New([]Node{
		{0, 1000, []Interval{{Start: 10, End: 20}, {Start: 30, End: 30}, {Start: 150, End: 200}}},
		{0, 1000, []Interval{{Start: 500, End: 650}}},
		{100, 900, []Interval{{Start: 100, End: 150}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadGeneric(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestReadGenericErrors(t *testing.T) {
	const head = "# nodes=2 start=0 end=100\n"
	for _, c := range []struct {
		name, in string
		line     int
		column   string
	}{
		{"empty", "", 1, ""},
		{"no nodes line", "# just a comment\n0,1,2\n", 2, ""},
		{"nodes line missing at end", "# comment\n# another\n", 2, ""},
		{"second nodes line", head + "# nodes=2 start=0 end=100\n", 2, "nodes"},
		{"nodes zero", "# nodes=0 start=0 end=1\n", 1, "nodes"},
		{"nodes negative", "# nodes=-1 start=0 end=1\n", 1, "nodes"},
		{"nodes huge", "# nodes=999999999 start=0 end=1\n", 1, "nodes"},
		{"nodes missing start", "# nodes=2 end=1\n", 1, "start"},
		{"unknown key", "# nodes=2 start=0 end=1 speed=3\n", 1, "nodes"},
		{"repeated key", "# nodes=2 start=0 end=1 end=2\n", 1, "end"},
		{"not key=value", "# nodes=2 start=0 end=1 x\n", 1, "nodes"},
		{"bad start", "# nodes=2 start=zero end=1\n", 1, "start"},
		{"nan end", "# nodes=2 start=0 end=NaN\n", 1, "end"},
		{"reversed window", "# nodes=2 start=5 end=1\n", 1, "end"},
		{"node window first", "# node=0 start=0 end=1\n" + head, 1, "node"},
		{"node window range", head + "# node=2 start=0 end=1\n", 2, "node"},
		{"node window twice", head + "# node=1 start=0 end=1\n# node=1 start=0 end=2\n", 3, "node"},
		{"node window key", head + "# node=1 start=0 end=1 nodes=3\n", 2, "node"},
		{"outage first", "0,1,2\n" + head, 1, ""},
		{"two fields", head + "0,1\n", 2, ""},
		{"five fields", head + "0,1,2,3,4\n", 2, ""},
		{"event text", head + "0,1,2,x\n", 2, "event"},
		{"event negative", head + "0,1,2,-1\n", 2, "event"},
		{"node range", head + "2,1,2\n", 2, "node"},
		{"node text", head + "a,1,2\n", 2, "node"},
		{"node negative", head + "-1,1,2\n", 2, "node"},
		{"start text", head + "0,x,2\n", 2, "down_start"},
		{"end empty", head + "0,1,\n", 2, "down_end"},
		{"end inf", head + "0,1,+Inf\n", 2, "down_end"},
		{"reversed", head + "0,5,2\n", 2, "down_end"},
		{"header after outage", head + "0,1,2\nnode,down_start,down_end\n", 3, "node"},
		{"long line", head + strings.Repeat("9", 2<<20) + "\n", 2, ""},
	} {
		_, err := ReadGeneric(strings.NewReader(c.in))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *ParseError", c.name, err)
			continue
		}
		if pe.Line != c.line || pe.Column != c.column {
			t.Errorf("%s: error at line %d column %q (%v), want line %d column %q", c.name, pe.Line, pe.Column, err, c.line, c.column)
		}
	}
}

// TestGenericRoundTrip writes random traces (random float times, node
// windows of their own, zero-length outages) and reads them back: the
// trace must come back equal, and writing it again must give the same
// bytes.
func TestGenericRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		nodes := make([]Node, 1+rng.IntN(6))
		for i := range nodes {
			s := 1e9 * rng.Float64()
			e := s + 1e7*rng.Float64()
			if rng.IntN(3) == 0 {
				s, e = 0, 2e9 // shared window
			}
			nodes[i] = Node{Start: s, End: e}
			for range rng.IntN(8) {
				a := s + (e-s)*rng.Float64()
				b := a
				if rng.IntN(3) > 0 {
					b += (e - s) * rng.Float64() / 10
				}
				nodes[i].Down = append(nodes[i].Down, Interval{Start: a, End: b})
			}
		}
		tr, err := New(nodes)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteGeneric(&buf, tr); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		back, err := ReadGeneric(&buf)
		if err != nil {
			t.Fatalf("trial %d: %v\n%s", trial, err, text)
		}
		if !reflect.DeepEqual(back, tr) {
			t.Fatalf("trial %d: round trip changed the trace\n%s", trial, text)
		}
		var again bytes.Buffer
		if err := WriteGeneric(&again, back); err != nil {
			t.Fatal(err)
		}
		if again.String() != text {
			t.Fatalf("trial %d: second write differs", trial)
		}
	}
}

func TestWriteGenericLayout(t *testing.T) {
	tr, err := New([]Node{
		{0, 100, []Interval{{Start: 10, End: 20.25}}},
		{50, 100, nil},
		{0, 100, []Interval{{Start: 1, End: 1}, {Start: 30, End: 40}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteGeneric(&buf, tr); err != nil {
		t.Fatal(err)
	}
	const want = "# nodes=3 start=0 end=100\n" +
		"# node=1 start=50 end=100\n" +
		"node,down_start,down_end\n" +
		"0,10,20.25\n" +
		"2,1,1\n" +
		"2,30,40\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
