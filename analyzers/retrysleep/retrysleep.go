package retrysleep

import (
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/diag"
	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer reports retry loops whose delay is fixed or absent.
// It reads the default model, retryloop.Analyzer.
var Analyzer = New(retryloop.Analyzer)

// New returns a retrysleep analyzer that reads the retry sites of model,
// an analyzer made by retryloop.New. Its -tests flag is its own, so
// analyzers made by separate calls never see each other's settings.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return diag.Reporting(&analysis.Analyzer{
		Name: "retrysleep",
		Doc:  doc,
		URL:  "https://github.com/retrylint/retrylint/blob/main/docs/retrysleep.md",
	}, model, run)
}

// Categories of retrysleep diagnostics.
const (
	CategoryFixed   = "fixed-delay"
	CategoryNoDelay = "no-delay"
)

func run(pass *analysis.Pass, res *retryloop.Result, tests bool) (any, error) {
	r := diag.New(pass, tests, res.Directives)
	for _, s := range res.Sites {
		ev := s.Evidence()
		if ev.Work.State == retryloop.StateAbsent || ev.Repair {
			continue // lockstep retries of local work hit nobody; a repair is not a retry
		}
		if ev.Shape == retryloop.ShapeLibrary {
			if ev.Wait.State == retryloop.StateAbsent || fixedAlone(ev) {
				r.ReportLibrary(s.LibraryFindings(libmodel.PropWait), libConsequences)
			}
			continue
		}
		if ev.Jitter.State == retryloop.StatePresent {
			continue
		}
		switch {
		case ev.Wait.State == retryloop.StatePresent && ev.Delay == retryloop.GrowthFixed:
			w := ev.Waits[0]
			r.Report(analysis.Diagnostic{
				Pos: w.Node.Pos(), End: w.Node.End(), Category: CategoryFixed,
				Message:        "retry waits a fixed delay: clients that failed together retry in lockstep; use exponential backoff with full jitter",
				Related:        related(s.Pos, ev),
				SuggestedFixes: backoffFix(pass, s),
			})
		case ev.Wait.State == retryloop.StateAbsent:
			if ev.Consume && ev.Remote.State != retryloop.StatePresent {
				continue // a consume loop's error branch, judged on what it calls
			}
			d := analysis.Diagnostic{
				Pos: s.Pos, End: s.End, Category: CategoryNoDelay,
				Message: ev.Subject + " retries at once: a failing dependency is hit again immediately by every caller; wait with exponential backoff and full jitter between attempts",
			}
			switch {
			case ev.Consume:
				// No fix: a backoff at the head of each round would slow
				// the successes the loop goes on with too.
				d.Message = "loop calls again at once after a failure: while the dependency is down it spins, hitting it as fast as it answers; wait with exponential backoff and full jitter before calling again"
				d.Related = []analysis.RelatedInformation{diag.Related(ev.Remote.Pos[0], "remote call retried here")}
			case ev.Remote.State == retryloop.StatePresent:
				d.Related = []analysis.RelatedInformation{diag.Related(ev.Remote.Pos[0], "remote call retried here")}
				d.SuggestedFixes = waitFix(pass, s)
			case ev.Remote.State == retryloop.StateUnknown && retryloop.JudgedAlone(ev):
				// A generic helper is judged on what it shows: it
				// waits for no caller, whatever work it is handed.
				d.Related = []analysis.RelatedInformation{diag.Related(s.HandedOp.Pos(), "retries the operation its callers hand it")}
			case ev.QuietBeside:
				// Unknown work (an interface method, a function value, a
				// subprocess), a helper's too: its delay is what is judged,
				// and nothing in the loop can wait (SPEC, "Retries of local
				// work"); local work was left above.
				d.Related = []analysis.RelatedInformation{diag.Related(s.Ops[0].Pos(), "operation retried here")}
			default:
				continue
			}
			r.Report(d)
		}
	}
	return r.Flush(), nil
}

// related names the site (at pos) and any further fixed waits of it.
func related(pos token.Pos, ev retryloop.Evidences) []analysis.RelatedInformation {
	out := []analysis.RelatedInformation{diag.Related(pos, ev.Subject)}
	if w := ev.Waits[0]; w.Shared && w.Delay != nil {
		out = append(out, diag.Related(w.Delay.Pos(), "a failure chooses this delay for the next round"))
	}
	for _, w := range ev.Waits[1:] {
		if w.Kind != retryloop.WaitHelper && w.Kind != retryloop.WaitLibrary {
			out = append(out, diag.Related(w.Node.Pos(), "it waits a fixed delay here too"))
		}
	}
	return out
}

// fixedAlone: a wait whose delay is fixed, with no randomness.
func fixedAlone(ev retryloop.Evidences) bool {
	return ev.Wait.State == retryloop.StatePresent && ev.Delay == retryloop.GrowthFixed && ev.Jitter.State != retryloop.StatePresent
}

// libConsequences word what a library finding's category does.
var libConsequences = map[string]string{
	libmodel.CatFixedDelay: "clients that failed together retry in lockstep at the same pace",
	libmodel.CatNoDelay:    "a failing dependency is hit again at once, with no pause to recover",
}
