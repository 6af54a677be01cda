package optimal

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/ckpt-markov/markov/scenario"
)

func TestZZTmp(t *testing.T) {
	iv, _ := strconv.ParseFloat(os.Getenv("ZZI"), 64)
	n, _ := strconv.Atoi(os.Getenv("ZZN"))
	if n == 0 {
		t.Skip()
	}
	sc := largeApp(t, n, 8*3600, 4*3600)
	sys := sc.System
	sys.FailureEvents = &scenario.FailureEvents{Sizes: []float64{0.5, 0, 0, 0.1, 0.1, 0.1, 0.1, 0.1}}
	cpu := cpuSeconds()
	res, err := FixedIntervalEvents(context.Background(), sys, sc.Application, iv, nil)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("ZZ", iv, res.UWT, res.Iterations, cpuSeconds()-cpu)
}
