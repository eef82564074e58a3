package libmodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// finding builds a Finding positioned on node.
func finding(category string, node ast.Node, shows string) Finding {
	return Finding{Category: category, Pos: node.Pos(), End: node.End(), Shows: shows}
}

// related adds the retry call as a related position when the finding
// stands elsewhere.
func (i Finding) related(n ast.Node, what string) Finding {
	if n != nil && (n.Pos() != i.Pos || n.End() != i.End) {
		i.Related = append(i.Related, analysis.RelatedInformation{Pos: n.Pos(), End: n.End(), Message: what})
	}
	return i
}

// fixList is the Fixer of rewrites built with the finding.
type fixList []analysis.SuggestedFix

func (l fixList) SuggestedFixes() []analysis.SuggestedFix { return l }

func (i Finding) fix(msg string, edits ...analysis.TextEdit) Finding {
	if len(edits) > 0 {
		l, _ := i.Fix.(fixList)
		i.Fix = append(l, analysis.SuggestedFix{Message: msg, TextEdits: edits})
	}
	return i
}

func replace(n ast.Node, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: n.Pos(), End: n.End(), NewText: []byte(text)}
}

func insert(pos token.Pos, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text)}
}

// siteBuilder collects the findings of one retry call, each category
// once: which of them a check reports is its reporter's decision.
type siteBuilder struct {
	site *Site
}

func newSite(call *ast.CallExpr) *siteBuilder {
	return &siteBuilder{site: &Site{Call: call}}
}

// rootAt sets root as the Root of the findings that stand at the send
// (the call, or its request): those in the configuration, root or the
// nodes config, stand where they are fixed already.
func (b *siteBuilder) rootAt(root ast.Node, config ...ast.Node) {
	within := func(p token.Pos, n ast.Node) bool { return n != nil && n.Pos() <= p && p < n.End() }
	for i := range b.site.Findings {
		f := &b.site.Findings[i]
		if within(f.Pos, root) || slices.ContainsFunc(config, func(n ast.Node) bool { return within(f.Pos, n) }) {
			continue
		}
		f.Root = root
	}
}

// madeBy sets maker as the Maker of every finding of the site: the
// client was made, and configured, out of view.
func (b *siteBuilder) madeBy(maker *types.Func) {
	for i := range b.site.Findings {
		b.site.Findings[i].Maker = maker
	}
}

func (b *siteBuilder) add(i Finding) {
	for _, old := range b.site.Findings {
		if old.Category == i.Category {
			return
		}
	}
	b.site.Findings = append(b.site.Findings, i.related(b.site.Call, "retried here"))
}

// addLitField returns an edit adding "name: value" to a keyed composite
// literal.
func addLitField(lit *ast.CompositeLit, name, value string) analysis.TextEdit {
	if len(lit.Elts) == 0 {
		return insert(lit.Lbrace+1, name+": "+value)
	}
	return insert(lit.Elts[len(lit.Elts)-1].End(), ", "+name+": "+value)
}
