package retryidempotency

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

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
		site := s.Evidence()
		if site.Shape == retryloop.ShapeLibrary {
			r.ReportLibrary(s.LibraryFindings(libmodel.PropKey), libConsequences)
			continue
		}
		if site.Consume {
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
	reportResent(pass, r, res)
	return r.Flush(), nil
}

// libConsequences word what a library finding's category does.
var libConsequences = map[string]string{
	libmodel.CatNoKey: "a retried write that reached the server is applied twice",
}

// reportResent reports the writes built here with a request builder and
// re-sent by a retrying client, grouped by the client: a client
// configured once to re-send every method is fixed once, at its
// construction (or the sender, when the construction is out of view),
// whatever the number of request methods built for it. Where the client
// is another package's, each package's writes stand at the first of
// them.
func reportResent(pass *analysis.Pass, r *diag.Reporter, res *retryloop.Result) {
	for _, req := range res.Resent {
		if req.Evidence(res.KeyHeaders).Key.State == retryloop.StatePresent {
			continue
		}
		d := analysis.Diagnostic{
			Pos: req.Pos, End: req.Build.End(), Category: CategoryNoKey,
			Message: req.Method + " request is re-sent by a retrying client without an idempotency key: a retry after a lost response repeats the write; set an Idempotency-Key minted once for all attempts",
			Related: []analysis.RelatedInformation{
				diag.Related(req.Send.Pos(), "sent here"),
				diag.Related(req.Via.Pos(), "the request is re-sent by a retrying client here"),
			},
		}
		key, root := resentRoot(pass, res, req.Via)
		r.Group(key, root, wordResent(req.Via), diag.Site{Diag: d, As: req.Method + " request built here, sent without an idempotency key"})
	}
}

// resentRoot returns the root cause of a write re-sent through the
// method via: the construction of the client it sends through when in
// view, else the method itself (its declaration when in this package).
func resentRoot(pass *analysis.Pass, res *retryloop.Result, obj types.Object) (any, analysis.Range) {
	via, ok := obj.(*types.Func)
	if !ok {
		return obj, nil
	}
	if via = via.Origin(); via.Pkg() != pass.Pkg {
		return via, nil
	}
	var decl *ast.FuncDecl
	for _, s := range slices.Concat(res.Sites, res.Quiet) {
		fd, ok := s.Func.(*ast.FuncDecl)
		if !ok || pass.TypesInfo.Defs[fd.Name] != via {
			continue
		}
		decl = fd
		if s.Shape == retryloop.ShapeLibrary && s.LibAnyMethod && s.LibConfig != nil {
			return s.LibConfig, s.LibConfig
		}
	}
	if decl == nil {
		return via, nil
	}
	return via, decl.Name
}

// wordResent words the grouped finding of the writes re-sent through
// the method via.
func wordResent(via types.Object) func(g *diag.Group) analysis.Diagnostic {
	return func(g *diag.Group) analysis.Diagnostic {
		var methods []string
		for _, s := range g.Sites {
			m, _, _ := strings.Cut(s.As, " ")
			methods = append(methods, m)
		}
		slices.Sort(methods)
		d := analysis.Diagnostic{
			Category: CategoryNoKey,
			Message: fmt.Sprintf("retrying client re-sends writes (%s) without an idempotency key at %s: a retry after a lost response repeats the write; set an Idempotency-Key minted once for all attempts of each write, or retry only idempotent methods",
				strings.Join(slices.Compact(methods), ", "), diag.Count(len(g.Sites), "request site", "request sites")),
		}
		if _, isFunc := g.Root.(*ast.Ident); !isFunc {
			d.Related = append(d.Related, diag.Related(via.Pos(), "the requests are re-sent through "+via.Name()+" here"))
		}
		return d
	}
}
