package retryjitter

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/diag"
	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer reports delays between attempts that grow without jitter.
// It reads the default model, retryloop.Analyzer.
var Analyzer = New(retryloop.Analyzer)

// New returns a retryjitter analyzer that reads the retry sites of model,
// an analyzer made by retryloop.New. Its -tests flag is its own, so
// analyzers made by separate calls never see each other's settings.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return diag.Reporting(&analysis.Analyzer{
		Name: "retryjitter",
		Doc:  doc,
		URL:  "https://github.com/retrylint/retrylint/blob/main/docs/retryjitter.md",
	}, model, run)
}

// CategoryNoJitter is the category of retryjitter diagnostics.
const CategoryNoJitter = "no-jitter"

func run(pass *analysis.Pass, res *retryloop.Result, tests bool) (any, error) {
	r := diag.New(pass, tests, res.Directives)
	for _, s := range res.Sites {
		ev := s.Evidence()
		if ev.Work.State == retryloop.StateAbsent || ev.Repair {
			continue // lockstep retries of local work hit nobody; a repair is not a retry
		}
		if ev.Shape == retryloop.ShapeLibrary {
			if ev.Jitter.State == retryloop.StateAbsent && ev.Delay == retryloop.GrowthGrowing {
				r.ReportLibrary(s.LibraryFindings(libmodel.PropJitter), libConsequences)
			}
			continue
		}
		if ev.Jitter.State == retryloop.StatePresent {
			continue
		}
		for _, w := range ev.Waits {
			if w.Growth != retryloop.GrowthGrowing {
				continue
			}
			d := analysis.Diagnostic{
				Pos: w.Node.Pos(), End: w.Node.End(), Category: CategoryNoJitter,
				Message: "backoff grows without jitter: clients that failed together retry together; wrap the delay in budget.Jitter",
				Related: []analysis.RelatedInformation{diag.Related(s.Pos, ev.Subject)},
			}
			for _, p := range w.Related {
				d.Related = append(d.Related, diag.Related(p, "delay computed here"))
			}
			if ev.Shape != retryloop.ShapeHelper { // the helper grows what it is given: jitter belongs inside it
				d.SuggestedFixes = jitterFix(pass, w)
			}
			r.Report(d)
			break // one diagnostic per loop
		}
	}
	return r.Flush(), nil
}

// libConsequences word what a library finding's category does.
var libConsequences = map[string]string{
	libmodel.CatNoJitter: "clients that failed together retry together",
}
