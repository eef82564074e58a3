package retrydeadline

import (
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/diag"
	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer reports retry sites not bounded by a deadline and waits that
// ignore cancellation.
// It reads the default model, retryloop.Analyzer.
var Analyzer = New(retryloop.Analyzer)

// New returns a retrydeadline analyzer that reads the retry sites of model,
// an analyzer made by retryloop.New. Its -tests flag is its own, so
// analyzers made by separate calls never see each other's settings.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	return diag.Reporting(&analysis.Analyzer{
		Name: "retrydeadline",
		Doc:  doc,
		URL:  "https://github.com/retrylint/retrylint/blob/main/docs/retrydeadline.md",
	}, model, run)
}

// Categories of retrydeadline diagnostics.
const (
	CategoryNoDeadline    = "no-deadline"
	CategoryIgnoresCancel = "sleep-ignores-context"
)

func run(pass *analysis.Pass, res *retryloop.Result, tests bool) (any, error) {
	r := diag.New(pass, tests, res.Directives)
	for _, s := range res.Sites {
		ev := s.Evidence()
		if ev.Shape == retryloop.ShapeLibrary {
			if ev.Deadline.State == retryloop.StateAbsent {
				r.ReportLibrary(s.LibraryFindings(libmodel.PropDeadline), libConsequences)
			}
			continue
		}
		if ev.Deadline.State == retryloop.StateAbsent {
			msg := ev.Subject + " runs without a deadline: its attempts use no context and no client timeout, so one hung attempt blocks forever; use a context with a timeout or a client timeout (no automatic fix: the call takes no context)"
			if ev.Background != nil {
				msg = ev.Subject + " runs without a deadline: its attempts run under a context with no deadline, so retries can go on long after the caller gave up; derive a context with a timeout"
			}
			d := analysis.Diagnostic{Pos: s.Pos, End: s.End, Category: CategoryNoDeadline, Message: msg, SuggestedFixes: timeoutFix(pass, s)}
			if ev.Background != nil {
				d.Related = append(d.Related, diag.Related(ev.Background.Pos(), "context without deadline made here"))
			}
			r.Report(d)
		}
		if ev.Cancel.State != retryloop.StateAbsent || shortWaits(pass, s, ev) {
			continue
		}
		for _, w := range ev.Waits {
			if !uncancellable(w.Kind) && !w.Sleeps {
				continue
			}
			what, cure := ev.CancelBy, "wait in a select on "+ev.CancelBy+" and a timer"
			if ev.CancelCtx {
				cure = "wait with budget.Sleep(" + what + ", d)"
			}
			if w.Sleeps {
				how := "sleeps with time.Sleep"
				if w.SleepsOn != "" {
					how = "waits on " + w.SleepsOn
				}
				d := analysis.Diagnostic{
					Pos: w.Node.Pos(), End: w.Node.End(), Category: CategoryIgnoresCancel,
					Message: "retry helper " + how + " while " + what + " is in scope and not handed to it: cancellation waits out every sleep; " +
						"hand the helper " + what + " and have it wait with budget.Sleep(" + what + ", d)",
				}
				if len(w.Related) > 0 {
					d.Related = []analysis.RelatedInformation{diag.Related(w.Related[0], "the helper")}
				}
				r.Report(d)
				break
			}
			r.Report(analysis.Diagnostic{
				Pos: w.Node.Pos(), End: w.Node.End(), Category: CategoryIgnoresCancel,
				Message:        "retry sleeps while " + what + " is in scope and never checks it: cancellation waits out every sleep; " + cure,
				Related:        []analysis.RelatedInformation{diag.Related(s.Pos, "retry loop")},
				SuggestedFixes: sleepFix(pass, s),
			})
			break
		}
	}
	return r.Flush(), nil
}

// shortWaits reports whether the waits of all attempts together are known
// to stay under a second: a cancelled caller waits no longer than that
// (SPEC, "Cancellation, not only time"; an elapsed-time limit or an
// attempt cap bounds the retry, not that wait). Known only of local
// work: a fixed delay of any other is retrysleep's finding, and its cure,
// a growing backoff, leaves the total unknown; judged as it is now, the
// clause would speak only once that fix is made, so -fix would not settle
// in one run.
func shortWaits(pass *analysis.Pass, s *retryloop.Site, ev retryloop.Evidences) bool {
	return ev.Work.State == retryloop.StateAbsent && s.WaitsBelow(pass.TypesInfo, time.Second)
}

// uncancellable reports whether a wait of this kind sleeps through a
// cancellation: time.Sleep, and a receive from time.After or from a
// timer's channel outside a select (SPEC, "Uncancellable waits").
func uncancellable(k retryloop.WaitKind) bool {
	return k == retryloop.WaitSleep || k == retryloop.WaitAfter || k == retryloop.WaitTimer
}

// libConsequences word what a library finding's category does.
var libConsequences = map[string]string{
	libmodel.CatNoContext:  "cancellation and deadlines of the caller do not stop the retries",
	libmodel.CatBackground: "nothing bounds the retries in time",
}
