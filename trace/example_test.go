package trace_test

import (
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/ckpt-markov/markov/trace"
)

// Two nodes watched for 100000 s. By hand: failures at 10000, 25000, 60000
// and 90000 (the last one repaired at once), 600 + 300 + 1200 + 0 = 2100 s
// down, 2·100000 − 2100 = 197900 s up; λ̂ = 4/197900, θ̂ = 4/2100.
func Example() {
	const log1 = `# nodes=2 start=0 end=100000
node,down_start,down_end
0,10000,10600
1,25000,25300
0,60000,61200
1,90000,90000
`
	tr, err := trace.ReadGeneric(strings.NewReader(log1))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("functional at 10300 s:", tr.Functional(10300))
	fmt.Println("failures:", tr.FailureTimes())
	ev, _ := tr.NextEvent(0, 10300)
	fmt.Printf("next event of node 0 after 10300 s: %s at %v s\n", ev.Kind, ev.Time)

	e, err := trace.EstimateRates(tr, 100000, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("λ = %d failures / %v s up = %.4g /s\n", e.Failure.Events, e.Failure.Exposure, e.Failure.Value)
	fmt.Printf("θ = %d repairs / %v s down = %.4g /s\n", e.Repair.Events, e.Repair.Exposure, e.Repair.Value)
	// Output:
	// functional at 10300 s: 1
	// failures: [10000 25000 60000 90000]
	// next event of node 0 after 10300 s: repair at 10600 s
	// λ = 4 failures / 197900 s up = 2.021e-05 /s
	// θ = 4 repairs / 2100 s down = 0.001905 /s
}

// A two-node system in the LANL layout. Node 1 has no rows: it exists,
// with the production window of node 0, and never fails. Times are Mountain
// Time: 12/20/2001 8:00 MST is 15:00 UTC; the log ends with its latest time.
func ExampleReadLANL() {
	const csv = `System,nodes,nodenumz,node prod,node decom,Prob Started,Prob Fixed,Same Event
20,2,0,1-Dec,current,12/20/2001 8:00,12/23/2001 2:28,No
20,2,0,1-Dec,current,1/3/2002 10:00,1/3/2002 11:30,No
`
	tr, err := trace.ReadLANL(strings.NewReader(csv), 20)
	if err != nil {
		log.Fatal(err)
	}
	for i := range tr.NumNodes() {
		n := tr.Node(i)
		fmt.Printf("node %d: window [%s, %s), %d outages\n", i, utc(n.Start), utc(n.End), len(n.Down))
	}
	first := tr.Node(0).Down[0]
	fmt.Printf("first outage: [%s, %s)\n", utc(first.Start), utc(first.End))
	// Output:
	// node 0: window [2001-12-01T07:00:00Z, 2002-01-03T18:30:00Z), 2 outages
	// node 1: window [2001-12-01T07:00:00Z, 2002-01-03T18:30:00Z), 0 outages
	// first outage: [2001-12-20T15:00:00Z, 2001-12-23T09:28:00Z)
}

func utc(sec float64) string {
	return time.Unix(int64(sec), 0).UTC().Format(time.RFC3339)
}

// Four nodes; node 0 and node 1 fail together at 5000 s (one event of two
// nodes, labelled 1 in the event column), node 2 fails alone at 8000 s.
// By hand: 3 failures in 2 events, sizes 2 and 1, one grouped event; up
// periods from time 0 end in failures on nodes 0, 1 and 2 (complete) and
// run to the end after each repair and on node 3 (censored).
func ExampleEstimateEvents() {
	const log1 = `# nodes=4 start=0 end=20000
node,down_start,down_end,event
0,5000,5600,1
1,5000,5300,1
2,8000,8100,
`
	tr, err := trace.ReadGeneric(strings.NewReader(log1))
	if err != nil {
		log.Fatal(err)
	}
	e, err := trace.EstimateEvents(tr, 20000, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("failures:", e.Events.Failures, "events:", e.Events.Events)
	for _, s := range e.Events.Sizes {
		fmt.Printf("events of %d node(s): %d\n", s.Size, s.Fraction.Count)
	}
	fmt.Println("single-node failures:", e.SingleFailures)
	fmt.Println("complete up periods:", e.UpTime.Complete, "censored:", e.UpTime.Censored)
	// Output:
	// failures: 3 events: 2
	// events of 1 node(s): 1
	// events of 2 node(s): 1
	// single-node failures: contradicted
	// complete up periods: 3 censored: 4
}
