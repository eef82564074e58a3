package retryidempotency

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/diag"
	"github.com/retrylint/retrylint/analyzers/internal/optlist"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Analyzer reports non-idempotent HTTP requests re-sent without a stable
// idempotency key.
var Analyzer = &analysis.Analyzer{
	Name:     "retryidempotency",
	Doc:      doc,
	URL:      "https://github.com/retrylint/retrylint/blob/main/docs/retryidempotency.md",
	Requires: []*analysis.Analyzer{retryloop.Analyzer},
	Run:      run,
}

// Categories of retryidempotency diagnostics.
const (
	CategoryNoKey     = "no-key"
	CategoryKeyMinted = "key-per-attempt"
)

var includeTests = false

func init() {
	Analyzer.Flags.BoolVar(&includeTests, "tests", false, "analyze _test.go files (a test process does not form a fleet: off by default)")
	Analyzer.Flags.Var(optlist.NewHeaders((*[]string)(&retryloop.Opts.KeyHeaders)), "headers", "comma-separated extra idempotency key header names (Idempotency-Key and X-Idempotency-Key are always recognised)")
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[retryloop.Analyzer].(*retryloop.Result)
	r := diag.New(pass, includeTests)
	for _, s := range res.Sites {
		if s.Shape == retryloop.ShapeLibrary {
			r.ReportLibrary(s.LibraryIssues("retryidempotency"))
			continue
		}
		if s.Consume {
			continue // each message is a new operation
		}
		for _, req := range s.Requests {
			if !req.NonIdempotent() || !isRetried(s, req) {
				continue
			}
			related := []analysis.RelatedInformation{diag.Related(s.Pos, "retry loop")}
			if req.Via != nil {
				related = append(related, diag.Related(req.Via.Pos(), "the request is sent here"))
			}
			switch {
			case !req.HasKey(retryloop.Opts.KeyHeaders):
				r.Report(analysis.Diagnostic{
					Pos: req.Pos, End: req.Send.End(), Category: CategoryNoKey,
					Message:        req.Method + " request is re-sent by a retry loop without an idempotency key: a retry after a lost response repeats the write; set an Idempotency-Key minted once before the loop",
					Related:        related,
					SuggestedFixes: append(keyFix(pass, s, req), shortcutFix(pass, s, req)...),
				})
			case req.KeyInLoop:
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
	return nil, nil
}

// isRetried reports whether the request's send is one of the retried operations.
func isRetried(s *retryloop.Site, req *retryloop.Request) bool {
	for _, op := range s.Ops {
		if op == req.Send || op.Pos() <= req.Send.Pos() && req.Send.End() <= op.End() {
			return true
		}
	}
	return false
}
