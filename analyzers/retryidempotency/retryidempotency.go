package retryidempotency

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/diag"
	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer reports non-idempotent HTTP requests re-sent without a stable
// idempotency key.
// It reads the default model, retryloop.Analyzer.
var Analyzer = New(retryloop.Analyzer)

// New returns a retryidempotency analyzer that reads the retry sites of
// model, an analyzer made by retryloop.New. Its -tests flag is its own;
// -headers sets model's option, so it steers every analyzer reading model
// and no other.
func New(model *analysis.Analyzer) *analysis.Analyzer {
	a := diag.Reporting(&analysis.Analyzer{
		Name: "retryidempotency",
		Doc:  doc,
		URL:  "https://github.com/retrylint/retrylint/blob/main/docs/retryidempotency.md",
	}, model, run)
	// The option that tunes this check is the model's; exposed here it
	// keeps the name users know (-retryidempotency.headers).
	retryloop.Flag(a, model, "headers")
	return a
}

// Categories of retryidempotency diagnostics.
const (
	CategoryNoKey     = "no-key"
	CategoryKeyMinted = "key-per-attempt"
)

func run(pass *analysis.Pass, res *retryloop.Result, tests bool) (any, error) {
	r := diag.New(pass, tests, res.Directives)
	for _, s := range res.Sites {
		if s.Shape == retryloop.ShapeLibrary {
			r.ReportLibrary(s.LibraryFindings(libmodel.PropKey), libConsequences)
			continue
		}
		if s.Consume {
			continue // each message is a new operation
		}
		for _, req := range s.Requests {
			ev := s.RequestEvidence(req, res.KeyHeaders)
			if ev.Write.State != retryloop.StatePresent || ev.Resent.State != retryloop.StatePresent {
				continue
			}
			related := []analysis.RelatedInformation{diag.Related(s.Pos, "retry loop")}
			if req.Via != nil {
				related = append(related, diag.Related(req.Via.Pos(), "the request is sent here"))
			}
			switch {
			case ev.Key.State == retryloop.StateAbsent:
				r.Report(analysis.Diagnostic{
					Pos: req.Pos, End: req.Send.End(), Category: CategoryNoKey,
					Message:        req.Method + " request is re-sent by a retry loop without an idempotency key: a retry after a lost response repeats the write; set an Idempotency-Key minted once before the loop",
					Related:        related,
					SuggestedFixes: append(keyFix(pass, s, req), shortcutFix(pass, s, req)...),
				})
			case ev.FreshKey.State == retryloop.StatePresent:
				pos := req.KeyPos
				if !pos.IsValid() {
					pos = req.Pos
				}
				r.Report(analysis.Diagnostic{
					Pos: pos, End: pos, Category: CategoryKeyMinted,
					Message:        "idempotency key is minted on every attempt: the server cannot tell a retry from a new write; mint the key once before the loop",
					Related:        related,
					SuggestedFixes: moveKeyFix(pass, s, req),
				})
			}
		}
	}
	for _, req := range res.Resent {
		if req.Evidence(res.KeyHeaders).Key.State == retryloop.StatePresent {
			continue
		}
		r.Report(analysis.Diagnostic{
			Pos: req.Pos, End: req.Build.End(), Category: CategoryNoKey,
			Message: req.Method + " request is re-sent by a retrying client without an idempotency key: a retry after a lost response repeats the write; set an Idempotency-Key minted once for all attempts",
			Related: []analysis.RelatedInformation{
				diag.Related(req.Send.Pos(), "sent here"),
				diag.Related(req.Via.Pos(), "the request is re-sent by a retrying client here"),
			},
		})
	}
	return nil, nil
}

// libConsequences word what a library finding's category does.
var libConsequences = map[string]string{
	libmodel.CatNoKey: "a retried write that reached the server is applied twice",
}
