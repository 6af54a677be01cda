package sweep_test

import (
	"fmt"
	"strings"

	"github.com/ckpt-markov/markov/sweep"
)

// A study of two processor counts and two policies, optimised: four tasks,
// split into two shards of similar cost. The tasks on 64 processors are
// the costlier; the longest-processing-time rule gives one to each shard,
// then one of the cheap ones to each.
func Example() {
	st, err := sweep.Parse(strings.NewReader(`{
		"name": "demo",
		"seed": 1,
		"compute": ["optimize"],
		"scenarios": {
			"application": "qr",
			"processors": [16, 64],
			"mttf": ["100d"],
			"mttr": ["1h"],
			"policies": ["greedy", "pb"]
		}
	}`), ".")
	if err != nil {
		fmt.Println(err)
		return
	}
	tasks := st.Expand()
	for _, t := range tasks {
		fmt.Println(t.Index, t.ID)
	}
	for k := range 2 {
		for _, t := range sweep.Shard(tasks, k, 2) {
			fmt.Printf("shard %d/2: task %d\n", k, t.Index)
		}
	}
	// Output:
	// 0 optimize app=qr n=16 mttf=8640000 mttr=3600 policy=greedy
	// 1 optimize app=qr n=16 mttf=8640000 mttr=3600 policy=pb
	// 2 optimize app=qr n=64 mttf=8640000 mttr=3600 policy=greedy
	// 3 optimize app=qr n=64 mttf=8640000 mttr=3600 policy=pb
	// shard 0/2: task 0
	// shard 0/2: task 2
	// shard 1/2: task 1
	// shard 1/2: task 3
}
