package diag

import (
	"cmp"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// Root-cause grouping. A finding whose fix is made in one place stands
// there once: a retrying client configured once re-sends the writes of
// every request method built for it, and a hundred findings at the
// request sites would all be fixed by one edit to the client. The sites
// are gathered under their root cause and reported as one diagnostic at
// it, with their count and the first MaxRelated of them as related
// positions; Groups, the reporting analyzer's result, keeps all of them
// for drivers that list every site.

// MaxRelated is the most sites a grouped diagnostic lists as related
// positions.
const MaxRelated = 10

// A Group is the findings of one root cause in the package.
type Group struct {
	// Root is where the fix is made (a client's construction), when it
	// is in this package; nil otherwise, and the group stands at its
	// first site (by file name, then position: SPEC, "which call site is
	// first").
	Root analysis.Range
	// Sites are the group's sites, in report order once Flush sorts
	// them.
	Sites []Site
	key   any
	word  func(g *Group) analysis.Diagnostic
}

// A Site is one site of a group: the diagnostic it has alone, and what
// it is as a related position of the group ("POST request built here").
type Site struct {
	Diag analysis.Diagnostic
	As   string
}

// Groups are the sites behind the grouped diagnostics one analyzer
// reported in one package: its Result. A grouped diagnostic's Related
// lists at most MaxRelated of its sites; Groups has them all.
type Groups struct {
	sites map[groupAt][]analysis.RelatedInformation
	names map[groupAt]string
}

type groupAt struct {
	pos      token.Pos
	category string
}

// GroupSites returns every site of the grouped diagnostic reported at
// pos with category (where the site's own diagnostic would stand, and
// what it is), or nil when no diagnostic there is grouped. A driver
// reads it through this method (the type is internal).
func (g *Groups) GroupSites(pos token.Pos, category string) []analysis.RelatedInformation {
	if g == nil {
		return nil
	}
	return g.sites[groupAt{pos, category}]
}

// GroupName returns the name of the root cause of the grouped diagnostic
// reported at pos with category when the root cause is out of view and
// the diagnostic stands at its first site ("(*example.com/api.Request).Do":
// a fingerprint of the group must not move with its first site), or "".
func (g *Groups) GroupName(pos token.Pos, category string) string {
	if g == nil {
		return ""
	}
	return g.names[groupAt{pos, category}]
}

// Group holds s, the finding of one site, under the root cause key (an
// object or node whose identity is the root cause's: compared with ==)
// to be reported by Flush. root is where the fix is made, nil when it is
// not in view; word words the group's diagnostic (its message and
// category, related positions of its own first), given by the group's
// first site. A site silenced by a directive is left out.
func (r *Reporter) Group(key any, root analysis.Range, word func(g *Group) analysis.Diagnostic, s Site) {
	if !r.Wants(s.Diag.Pos) {
		return
	}
	i := slices.IndexFunc(r.groups, func(g *Group) bool { return g.key == key })
	if i < 0 {
		i = len(r.groups)
		r.groups = append(r.groups, &Group{Root: root, key: key, word: word})
	}
	r.groups[i].Sites = append(r.groups[i].Sites, s)
}

// Flush reports each group once and returns the package's Groups. A
// group of one site with no root in view is reported as that site's own
// diagnostic; any other as its word words it, at the root or the first
// site, with up to MaxRelated of its sites added as related positions.
func (r *Reporter) Flush() *Groups {
	out := &Groups{sites: map[groupAt][]analysis.RelatedInformation{}, names: map[groupAt]string{}}
	for _, g := range r.groups {
		slices.SortStableFunc(g.Sites, func(a, b Site) int {
			pa, pb := r.pass.Fset.Position(a.Diag.Pos), r.pass.Fset.Position(b.Diag.Pos)
			return cmp.Or(cmp.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
		})
		if g.Root == nil && len(g.Sites) == 1 {
			r.Report(g.Sites[0].Diag)
			continue
		}
		d := g.word(g)
		sites := g.Sites
		if g.Root != nil {
			d.Pos, d.End = g.Root.Pos(), g.Root.End()
		} else {
			d.Pos, d.End = sites[0].Diag.Pos, sites[0].Diag.End
			sites = sites[1:]
		}
		for _, s := range sites[:min(len(sites), MaxRelated)] {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: s.Diag.Pos, End: s.Diag.End, Message: s.As})
		}
		if !r.Wants(d.Pos) {
			continue
		}
		r.pass.Report(d)
		at := groupAt{d.Pos, d.Category}
		if g.Root == nil {
			out.names[at] = rootName(g.key)
		}
		for _, s := range g.Sites {
			out.sites[at] = append(out.sites[at], analysis.RelatedInformation{Pos: s.Diag.Pos, End: s.Diag.End, Message: s.As})
		}
	}
	r.groups = nil
	return out
}

// rootName names a root cause out of view by its key: a function or
// method by its full name, anything else not at all.
func rootName(key any) string {
	switch k := key.(type) {
	case makerKey:
		return k.maker.FullName()
	case *types.Func:
		return k.FullName()
	case types.Object:
		return types.ObjectString(k, nil)
	}
	return ""
}
