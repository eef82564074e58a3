package analyzers_test

import (
	"io"
	"os"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers"
	"github.com/retrylint/retrylint/analyzers/internal/sites"
	"github.com/retrylint/retrylint/internal/driver"
)

// v3 reads the model v3's result, so that suite+v3 measures what running
// it in the shadow of the suite costs (SSA and summaries included).
var v3 = &analysis.Analyzer{
	Name:     "v3shadow",
	Doc:      "reads the model v3 (benchmark only)",
	Requires: []*analysis.Analyzer{sites.Analyzer},
	Run:      func(*analysis.Pass) (any, error) { return nil, nil },
}

// noopFact makes the no-op analyzer need facts, so the driver loads and
// type-checks every dependency from source, exactly as for the suite.
type noopFact struct{}

func (*noopFact) AFact() {}

var noop = &analysis.Analyzer{
	Name:      "noop",
	Doc:       "does nothing: the cost of loading and type-checking alone",
	Run:       func(*analysis.Pass) (any, error) { return nil, nil },
	FactTypes: []analysis.Fact{new(noopFact)},
}

// BenchmarkSuiteOverhead compares, in one run, the same driver over the
// same packages with a no-op analyzer and with the six analyzers:
// suite/noop is the analyzers' cost on top of loading and type-checking;
// suite+v3/noop the same with the model v3 running beside the suite.
//
// It reports wall time (ns/op) and the process's CPU time (cpu-ns/op).
//
//	go test ./analyzers -run '^$' -bench SuiteOverhead -benchtime 3x        # std
//	RETRYLINT_BENCH_PATTERN=net/http go test ./analyzers -run '^$' -bench SuiteOverhead
func BenchmarkSuiteOverhead(b *testing.B) {
	pattern := os.Getenv("RETRYLINT_BENCH_PATTERN")
	if pattern == "" {
		pattern = "std"
	}
	args := []string{"-test=false", "-json", pattern}
	for _, tc := range []struct {
		name string
		as   []*analysis.Analyzer
	}{
		{"noop", []*analysis.Analyzer{noop}},
		{"suite", analyzers.All()},
		{"suite+v3", append(analyzers.All(), v3)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			start := cpuTime()
			n := 0
			for b.Loop() {
				if code := driver.Run(args, tc.as, io.Discard, io.Discard); code == 1 {
					b.Fatalf("driver failed on %s", pattern)
				}
				n++
			}
			// The CPU the process spent (user and system, every
			// goroutine), beside the wall time: on a shared machine the
			// two ratios bracket the cost.
			b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
		})
	}
}
