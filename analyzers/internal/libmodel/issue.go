package libmodel

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// issue builds an Issue positioned on node.
func issue(check Check, category string, node ast.Node, msg string) Issue {
	return Issue{Check: check, Category: category, Pos: node.Pos(), End: node.End(), Message: msg}
}

// related adds the retry call as a related position when the issue stands
// elsewhere.
func (i Issue) related(n ast.Node, what string) Issue {
	if n != nil && (n.Pos() != i.Pos || n.End() != i.End) {
		i.Related = append(i.Related, analysis.RelatedInformation{Pos: n.Pos(), End: n.End(), Message: what})
	}
	return i
}

func (i Issue) fix(msg string, edits ...analysis.TextEdit) Issue {
	if len(edits) > 0 {
		i.Fixes = append(i.Fixes, analysis.SuggestedFix{Message: msg, TextEdits: edits})
	}
	return i
}

func replace(n ast.Node, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: n.Pos(), End: n.End(), NewText: []byte(text)}
}

func insert(pos token.Pos, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text)}
}

// site collects the issues of one retry call, at most one per check.
type siteBuilder struct {
	site *Site
}

func newSite(call *ast.CallExpr) *siteBuilder {
	return &siteBuilder{site: &Site{Call: call}}
}

func (b *siteBuilder) add(i Issue) {
	for _, old := range b.site.Issues {
		if old.Check == i.Check {
			return
		}
	}
	b.site.Issues = append(b.site.Issues, i.related(b.site.Call, "retried here"))
}

func (b *siteBuilder) has(c Check) bool {
	for _, old := range b.site.Issues {
		if old.Check == c {
			return true
		}
	}
	return false
}

// addLitField returns an edit adding "name: value" to a keyed composite
// literal.
func addLitField(lit *ast.CompositeLit, name, value string) analysis.TextEdit {
	if len(lit.Elts) == 0 {
		return insert(lit.Lbrace+1, name+": "+value)
	}
	return insert(lit.Elts[len(lit.Elts)-1].End(), ", "+name+": "+value)
}

// Messages shared by several libraries.
const (
	consNoJitter  = "clients that failed together retry together"
	consFixed     = "clients that failed together retry in lockstep at the same pace"
	consNoDelay   = "a failing dependency is hit again at once, with no pause to recover"
	consUnbounded = "a persistent failure is retried forever"
	consNoBudget  = "under an outage every caller retries and multiplies load"
	consNoCtx     = "cancellation and deadlines of the caller do not stop the retries"
	consBgCtx     = "nothing bounds the retries in time"
	consNoKey     = "a retried write that reached the server is applied twice"
)
