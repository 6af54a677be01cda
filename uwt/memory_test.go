package uwt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/ckpt-markov/markov/internal/testmodel"
	"github.com/ckpt-markov/markov/scenario"
)

// memoryScenario is the README's built-in scenario (LANL system 1: MTTF
// 104.61 days, MTTR 56.03 minutes per processor) with a QR-like
// application on n processors, greedy.
func memoryScenario(t *testing.T, n int) *scenario.Scenario {
	return mustScenario(t, scenario.System{Processors: n, MTTF: 104.61 * 86400, MTTR: 56.03 * 60}, testmodel.QRLike(n), scenario.Policy{})
}

// TestMemoryChild is the child process of TestSizeEstimateBoundsMemory:
// it evaluates one interval of the exact model of UWT_MEMORY_N processors
// in a fresh process and prints the memory the process obtained from the
// operating system (runtime.MemStats.Sys, which bounds the peak of the Go
// heap, stacks and runtime structures). It does nothing in a normal run.
func TestMemoryChild(t *testing.T) {
	s := os.Getenv("UWT_MEMORY_N")
	if s == "" {
		t.Skip("the child of TestSizeEstimateBoundsMemory")
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(context.Background(), memoryScenario(t, n), &Settings{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Evaluate(context.Background(), 3600); err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("SYS %d\n", ms.Sys)
}

// TestSizeEstimateBoundsMemory checks that the memory estimate of the
// size guard (SizeError.Bytes: what --max-memory and the default 6.5 GB
// limit compare) is an upper bound on what evaluating the model takes:
// the memory a fresh process running one evaluation of the exact model
// obtains from the operating system (TestMemoryChild), with the default
// GOGC. Before, the estimate was 65 bytes per transition and ran 16–24 %
// low at N = 256 and 50 % low at N = 96 (issue 23).
func TestSizeEstimateBoundsMemory(t *testing.T) {
	ns := []int{48, 96}
	if testing.Short() {
		ns = ns[:1]
	}
	for _, n := range ns {
		_, err := New(context.Background(), memoryScenario(t, n), &Settings{Exact: true, MaxTransitions: 1})
		var size *SizeError
		if !errors.As(err, &size) {
			t.Fatalf("N = %d with MaxTransitions 1: error %v, want a *SizeError with the estimate", n, err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryChild$", "-test.v")
		cmd.Env = append(os.Environ(), "UWT_MEMORY_N="+strconv.Itoa(n), "GOGC=100", "GOMEMLIMIT=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("N = %d: child: %v\n%s", n, err, out)
		}
		var sys uint64
		for line := range strings.Lines(string(out)) {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "SYS "); ok {
				sys, _ = strconv.ParseUint(v, 10, 64)
			}
		}
		if sys == 0 {
			t.Fatalf("N = %d: child printed no SYS line:\n%s", n, out)
		}
		t.Logf("N = %d: estimate %.3g bytes (%.3g transitions), obtained %d", n, size.Bytes(), size.Transitions, sys)
		if float64(sys) > size.Bytes() {
			t.Errorf("N = %d: the evaluation obtained %d bytes from the OS, more than the estimate %.4g", n, sys, size.Bytes())
		}
	}
}
