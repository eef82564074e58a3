package retrynested

import (
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/diag"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer reports retry sites whose retried operation retries again.
// It reads the default model, retryloop.Analyzer.
var Analyzer = New(retryloop.Analyzer)

// New returns a retrynested analyzer that reads the retry sites of model,
// an analyzer made by retryloop.New. Its -tests flag is its own.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return diag.Reporting(&analysis.Analyzer{
		Name: "retrynested",
		Doc:  doc,
		URL:  "https://github.com/retrylint/retrylint/blob/main/docs/retrynested.md",
	}, model, run)
}

// Categories of retrynested diagnostics.
const (
	CategoryNested = "nested-retry"  // the operation calls code that retries
	CategoryClient = "nested-client" // the operation goes through a client that retries on its own
)

func run(pass *analysis.Pass, res *retryloop.Result, tests bool) (any, error) {
	r := diag.New(pass, tests, res.Directives)
	for _, s := range append(append([]*retryloop.Site(nil), res.Sites...), res.Quiet...) {
		if d, ok := diagnose(s); ok {
			r.Report(d)
		}
	}
	return r.Flush(), nil
}

// diagnose words the finding of one site: its inner layers that are not
// both budgeted (a budget at both layers already bounds the product).
func diagnose(s *retryloop.Site) (analysis.Diagnostic, bool) {
	// Layers multiply load on a dependency only when the retried work
	// is known to reach one, or is a generic helper's handed remote work
	// (SPEC, "Retries of local work").
	ev := s.Evidence()
	if ev.Work.State != retryloop.StatePresent || ev.Repair {
		return analysis.Diagnostic{}, false
	}
	outerBudget := ev.Budget.State != retryloop.StateAbsent // unknown is not absent
	var unbudgeted []*retryloop.Layer
	var related []analysis.RelatedInformation
	for _, in := range ev.Inner {
		if outerBudget && in.Budget {
			continue
		}
		unbudgeted = append(unbudgeted, in)
		n, known, unbounded := retryloop.Product(in.Chain)
		what := "this call retries too"
		switch {
		case unbounded:
			what += ", without limit"
		case known:
			what += ": up to " + strconv.Itoa(n) + " attempts"
		}
		related = append(related, diag.Related(in.Pos, what+" ("+in.Owner+")"))
	}
	worst := retryloop.WorstLayer(unbudgeted)
	if worst == nil {
		return analysis.Diagnostic{}, false
	}
	chain := append([]int{ev.Attempts}, worst.Chain...) // the worst unbudgeted layer, not s.Chain()
	cat := CategoryNested
	if worst.Client {
		cat = CategoryClient
	}
	return analysis.Diagnostic{
		Pos: s.Pos, End: s.End, Category: cat, Related: related,
		Message: subject(ev) + " retries a call that already retries: " + product(chain) +
			"; retry at one layer, the one nearest the dependency (" + worst.Owner + ")",
	}, true
}

// product words the attempts a chain makes: "3 × 5 = up to 15 attempts
// per call", "at least 3 × ? attempts per call", or unbounded.
func product(chain []int) string {
	n, known, unbounded := retryloop.Product(chain)
	s := retryloop.ChainString(chain)
	switch {
	case unbounded:
		return s + " attempts per call, without limit"
	case known:
		return s + " = up to " + strconv.Itoa(n) + " attempts per call"
	}
	return "at least " + s + " attempts per call"
}

func subject(ev retryloop.Evidences) string {
	if ev.Shape == retryloop.ShapeLibrary {
		return "library retry"
	}
	return ev.Subject
}
