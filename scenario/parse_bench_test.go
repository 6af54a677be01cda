//go:build unix

package scenario_test

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"

	"github.com/ckpt-markov/markov/internal/cputime"
	"github.com/ckpt-markov/markov/scenario"
)

// listsDocument writes a scenario of n processors whose four per-count
// fields are lists of n numbers (QR-like values with 6 significant
// digits), with the system first or last.
func listsDocument(n int, systemFirst bool) []byte {
	var b bytes.Buffer
	list := func(f func(a float64) float64) {
		b.WriteByte('[')
		for a := 1; a <= n; a++ {
			if a > 1 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(f(float64(a)), 'g', 6, 64))
		}
		b.WriteByte(']')
	}
	system := fmt.Sprintf(`"system": {"processors": %d, "mttf": "25y", "mttr": "1h"}`, n)
	b.WriteByte('{')
	if systemFirst {
		b.WriteString(system + ", ")
	}
	b.WriteString(`"application": {"work_rate": `)
	list(func(a float64) float64 { return a / (1 + a/2000) })
	b.WriteString(`, "checkpoint_latency": `)
	list(func(a float64) float64 { return 99.19 + 1/a })
	b.WriteString(`, "checkpoint_overhead": `)
	list(func(a float64) float64 { return 99.19 - 1/a })
	b.WriteString(`, "recovery": `)
	list(func(a float64) float64 { return 17.21 + a/3 })
	b.WriteString(`}, "policy": "greedy"`)
	if !systemFirst {
		b.WriteString(", " + system)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// BenchmarkParse measures Parse on a scenario of 4·10⁶ processors given
// as four lists (≈ 120 MB), with the system before the application (read
// in one pass) or after it (the application's bytes kept until N is
// known, then read), and in parametric forms. cpu_s is the process's CPU
// time per parse.
//
//	go test ./scenario -run XXX -bench Parse -benchmem -benchtime 3x
func BenchmarkParse(b *testing.B) {
	const n = 4_000_000
	forms := []byte(fmt.Sprintf(`{"system": {"processors": %d, "mttf": "25y", "mttr": "1h"},
		"application": {"work_rate": {"amdahl": {"rate": 1, "serial": 0.0005}},
			"checkpoint_latency": {"constant": 99.19}, "recovery": {"constant": 17.21}},
		"policy": "greedy"}`, n))
	for _, c := range []struct {
		name string
		doc  func() []byte
	}{
		{"lists/system-first", func() []byte { return listsDocument(n, true) }},
		{"lists/system-last", func() []byte { return listsDocument(n, false) }},
		{"forms", func() []byte { return forms }},
	} {
		b.Run(fmt.Sprintf("%s/N=%d", c.name, n), func(b *testing.B) {
			if testing.Short() && c.name != "forms" {
				b.Skip("100 MB documents: not with -short")
			}
			data := c.doc()
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			cpu0 := cputime.Used()
			for b.Loop() {
				if _, err := scenario.Parse(bytes.NewReader(data), nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Used()-cpu0).Seconds()/float64(b.N), "cpu_s")
		})
	}
}
