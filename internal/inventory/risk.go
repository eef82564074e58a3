package inventory

import (
	"cmp"
	"go/token"
	"math"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/retrylint/retrylint/analyzers/retrybudget"
	"github.com/retrylint/retrylint/analyzers/retrydeadline"
	"github.com/retrylint/retrylint/analyzers/retryidempotency"
	"github.com/retrylint/retrylint/analyzers/retryjitter"
	"github.com/retrylint/retrylint/analyzers/retryloop"
	"github.com/retrylint/retrylint/analyzers/retrynested"
	"github.com/retrylint/retrylint/analyzers/retrysleep"
)

// Finding is one diagnostic of a check that ran, at the site it belongs
// to: reported at the site, naming it as a related position, or inside
// it.
type Finding struct {
	Analyzer string `json:"analyzer"`
	Category string `json:"category"`
	Pos      string `json:"pos"`
	Message  string `json:"message"`

	posn    token.Position
	related []token.Position
}

// groups is how a reporting analyzer's result gives the sites of its
// grouped diagnostics (the analyzers' diag.Groups).
type groups interface {
	GroupSites(pos token.Pos, category string) []analysis.RelatedInformation
}

// findingsOf returns the diagnostics of the root actions, each once (a
// file of p is also in "p [p.test]"). A diagnostic grouped by root cause
// (one for the sends of a client configured elsewhere) is a finding at
// each of its sites, where its rows are.
func findingsOf(graph *checker.Graph, rel func(string) string) []*Finding {
	type key struct {
		file     string
		offset   int
		analyzer string
		message  string
	}
	seen := map[key]bool{}
	var out []*Finding
	for _, act := range graph.Roots {
		if act.Analyzer == retryloop.Analyzer {
			continue
		}
		grp, _ := act.Result.(groups)
		for _, d := range act.Diagnostics {
			at := []token.Pos{d.Pos}
			related := d.Related
			if grp != nil {
				if sites := grp.GroupSites(d.Pos, d.Category); sites != nil {
					at, related = nil, nil
					for _, s := range sites {
						at = append(at, s.Pos)
					}
				}
			}
			for _, pos := range at {
				posn := act.Package.Fset.Position(pos)
				k := key{posn.Filename, posn.Offset, act.Analyzer.Name, d.Message}
				if seen[k] {
					continue
				}
				seen[k] = true
				f := &Finding{Analyzer: act.Analyzer.Name, Category: d.Category, Pos: posString(rel, posn), Message: d.Message, posn: posn}
				for _, r := range related {
					f.related = append(f.related, act.Package.Fset.Position(r.Pos))
				}
				out = append(out, f)
			}
		}
	}
	return out
}

// attribute hands each finding to one row: the site it is reported at,
// else the site it names as a related position, else the innermost site
// whose syntax holds it. A finding of none of them is left out.
func attribute(rows []*Row, findings []*Finding) {
	for _, f := range findings {
		home := rowWhere(rows, func(r *Row) bool { return samePos(r.pos, f.posn) })
		if home == nil {
			home = rowWhere(rows, func(r *Row) bool {
				return slices.ContainsFunc(f.related, func(p token.Position) bool { return samePos(r.pos, p) })
			})
		}
		if home == nil {
			home = innermost(rows, f.posn)
		}
		if home != nil {
			home.Findings = append(home.Findings, *f)
		}
	}
	for _, r := range rows {
		slices.SortStableFunc(r.Findings, func(a, b Finding) int {
			return cmp.Or(cmp.Compare(a.posn.Offset, b.posn.Offset), cmp.Compare(a.Analyzer, b.Analyzer))
		})
	}
}

func samePos(a, b token.Position) bool { return a.Filename == b.Filename && a.Offset == b.Offset }

func rowWhere(rows []*Row, f func(*Row) bool) *Row {
	if i := slices.IndexFunc(rows, f); i >= 0 {
		return rows[i]
	}
	return nil
}

// innermost returns the row of the smallest site whose syntax holds p.
func innermost(rows []*Row, p token.Position) *Row {
	var in *Row
	for _, r := range rows {
		if r.start.Filename != p.Filename || p.Offset < r.start.Offset || p.Offset >= r.end.Offset {
			continue
		}
		if in == nil || r.end.Offset-r.start.Offset < in.end.Offset-in.start.Offset {
			in = r
		}
	}
	return in
}

// Risk levels, in order.
const (
	low = iota
	medium
	high
)

var levelNames = [...]string{"low", "medium", "high"}

// riskOf grades a row from its findings (docs/inventory.md, "Risk"):
//
//   - a POST or PATCH re-sent without a key that stays the same across
//     attempts is high;
//   - a site with no attempt limit, or no budget around a remote call,
//     is high when its worst case per call multiplies across layers
//     (nested retries), medium otherwise; retrynested's finding (a chain
//     of layers one of which consults no budget) is high;
//   - no deadline (or a wait that ignores cancellation), no jitter, and a
//     fixed or absent delay each raise the level one step, up to high:
//     a check counts once however many findings it has at the site.
func riskOf(r *Row) Risk {
	risk, _ := grades(r)
	return risk
}

// grades returns the row's risk and the level its findings set before
// the raising ones: a site high by itself ranks before one raised to
// high.
func grades(r *Row) (Risk, int) {
	reasons := []string{}
	add := func(s string) {
		if !slices.Contains(reasons, s) {
			reasons = append(reasons, s)
		}
	}
	base := low
	raisers := map[string]bool{}
	for _, f := range r.Findings {
		texts, step, raises := grade(r, f)
		for _, t := range texts {
			add(t)
		}
		if raises {
			raisers[f.Analyzer] = true
		} else {
			base = max(base, step)
		}
	}
	return Risk{Level: levelNames[min(high, base+len(raisers))], Reasons: reasons}, base
}

// grade returns the reasons a finding gives, the level it sets, or
// whether it raises the level instead.
func grade(r *Row, f Finding) (reasons []string, level int, raises bool) {
	across := r.WorstCase.Chain + " across layers"
	byLayers := func(s string) ([]string, int, bool) {
		if r.WorstCase.Nested {
			return []string{s, across}, high, false
		}
		return []string{s}, medium, false
	}
	one := func(s string, level int, raises bool) ([]string, int, bool) { return []string{s}, level, raises }
	switch f.Analyzer + "/" + f.Category {
	case retryidempotency.Analyzer.Name + "/" + retryidempotency.CategoryNoKey:
		return one(cmp.Or(methodOf(r), "write")+" re-sent without an idempotency key", high, false)
	case retryidempotency.Analyzer.Name + "/" + retryidempotency.CategoryKeyMinted:
		return one("idempotency key minted anew on each attempt", high, false)
	case retrybudget.Analyzer.Name + "/" + retrybudget.CategoryUnbounded:
		return byLayers("unbounded")
	case retrybudget.Analyzer.Name + "/" + retrybudget.CategoryNoBudget:
		return byLayers("no budget")
	case retrynested.Analyzer.Name + "/" + retrynested.CategoryNested, retrynested.Analyzer.Name + "/" + retrynested.CategoryClient:
		return one(across, high, false)
	case retrydeadline.Analyzer.Name + "/" + retrydeadline.CategoryNoDeadline:
		return one("no deadline", 0, true)
	case retrydeadline.Analyzer.Name + "/" + retrydeadline.CategoryIgnoresCancel:
		return one("waits ignore cancellation", 0, true)
	case retryjitter.Analyzer.Name + "/" + retryjitter.CategoryNoJitter:
		return one("no jitter", 0, true)
	case retrysleep.Analyzer.Name + "/" + retrysleep.CategoryFixed:
		return one("fixed delay", 0, true)
	case retrysleep.Analyzer.Name + "/" + retrysleep.CategoryNoDelay:
		return one("no delay", 0, true)
	}
	// A check this grading does not know (a suite of another build):
	// its finding raises the level as the lesser ones do.
	return one(strings.TrimSuffix(f.Analyzer+": "+f.Category, ": "), 0, true)
}

// methodOf returns the HTTP method of the row's request, if known.
func methodOf(r *Row) string {
	if r.Remote != nil && r.Remote.Kind == "http" {
		return r.Remote.Method
	}
	return ""
}

// sortRows orders the rows: by risk level, high first; then by the level
// the site has before raising (high by itself before raised to high);
// then by the worst case per call, largest first (unbounded largest, an unknown count as
// 1); then by the number of reasons, most first; then unbudgeted before
// budgeted; then by file and position.
func sortRows(rows []*Row) {
	amp := func(r *Row) int {
		if r.WorstCase.Unbounded {
			return math.MaxInt
		}
		return r.WorstCase.Attempts
	}
	slices.SortStableFunc(rows, func(a, b *Row) int {
		return cmp.Or(
			-cmp.Compare(levelOf(a.Risk.Level), levelOf(b.Risk.Level)),
			-cmp.Compare(a.baseLevel, b.baseLevel),
			-cmp.Compare(amp(a), amp(b)),
			-cmp.Compare(len(a.Risk.Reasons), len(b.Risk.Reasons)),
			cmp.Compare(btoi(a.Budget), btoi(b.Budget)),
			cmp.Compare(a.pos.Filename, b.pos.Filename),
			cmp.Compare(a.pos.Offset, b.pos.Offset),
		)
	})
	for i, r := range rows {
		r.Rank = i + 1
	}
}

func levelOf(name string) int { return slices.Index(levelNames[:], name) }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
