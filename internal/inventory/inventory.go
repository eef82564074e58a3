// Package inventory lists every retry site of the packages a run names,
// one row each, riskiest first: retrylint -inventory[=md|json|html].
//
// The rows come from the retryloop analyzer's classification, the same
// model the checks decide on, so the inventory and the findings never
// disagree about what a site is. It is not a lint: it lists sites whatever
// their findings, and the driver exits 0 after printing it.
//
// The JSON form is versioned ([Version]) and documented field by field in
// docs/inventory.md, with a JSON Schema in docs/inventory.schema.json.
package inventory

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Version is the version of the JSON form; it changes when a field
// changes meaning or goes away, not when one is added.
const Version = 1

// Inventory is the whole report.
type Inventory struct {
	Version int    `json:"version"`
	Sites   []*Row `json:"sites"`
}

// Row is one retry site.
type Row struct {
	Rank     int    `json:"rank"` // 1 is the riskiest
	Risk     Risk   `json:"risk"`
	Pos      string `json:"pos"` // file:line:col, relative to the working directory when inside it
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Package  string `json:"package"`
	Function string `json:"function"`
	Shape    string `json:"shape"`
	// Consume marks the error branch of a consume loop: it handles a
	// stream of work and calls again after a failure until stopped. It is
	// listed, but is no layer of a chain and not graded as unbounded.
	Consume bool   `json:"consume"`
	Library string `json:"library,omitempty"`
	// Operation is the retried call as written.
	Operation string  `json:"operation"`
	Remote    *Remote `json:"remote"`
	Attempts  Count   `json:"attempts"`
	// AttemptsText words Attempts for a reader: "3", "unbounded",
	// "until the deadline", "unknown (set by cfg.MaxRetries)".
	AttemptsText string  `json:"attemptsText"`
	Bound        string  `json:"bound"`
	Delay        Delay   `json:"delay"`
	Jitter       bool    `json:"jitter"`
	Budget       bool    `json:"budget"`
	Deadline     Context `json:"deadline"`
	// IdempotencyKey is set for sites sending a POST or PATCH: present,
	// per-attempt (minted anew on every attempt, so no key at all to the
	// server) or missing.
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
	// Layers are the retry layers one call of the site goes through, this
	// site first, along its worst chain.
	Layers    []*Layer `json:"layers"`
	WorstCase Worst    `json:"worstCase"`
	// Findings are what the checks that ran report at the site: the
	// risk is graded from them.
	Findings []Finding `json:"findings"`

	pos        token.Position
	start, end token.Position // the site's syntax, where its findings lie
	baseLevel  int            // the level before the raising findings
}

// Count is an attempt count: N when known, else Unbounded (nothing limits
// it) or neither (the code does not show it).
type Count struct {
	N         int  `json:"n,omitempty"`
	Unbounded bool `json:"unbounded,omitempty"`
}

func countOf(n int) Count {
	switch n {
	case retryloop.AttemptsUnbounded:
		return Count{Unbounded: true}
	case retryloop.AttemptsUnknown:
		return Count{}
	}
	return Count{N: n}
}

func (c Count) String() string {
	switch {
	case c.Unbounded:
		return "unbounded"
	case c.N == 0:
		return "?"
	}
	return itoa(c.N)
}

// Remote is what a site's operation reaches over the network.
type Remote struct {
	Kind   string `json:"kind"`             // http, sql, grpc or network
	Call   string `json:"call"`             // the call that reaches it
	Method string `json:"method,omitempty"` // HTTP method, gRPC Service/Method
	Host   string `json:"host,omitempty"`   // HTTP: the URL's host if a literal, else the URL expression
	Query  string `json:"query,omitempty"`  // SQL: the query if a literal, else its expression
	Via    string `json:"via,omitempty"`    // the function sending it, when not the site itself
}

// Delay is the wait between attempts.
type Delay struct {
	Kind        string `json:"kind,omitempty"` // sleep, after, select, timer, ticker, helper, library
	Expr        string `json:"expr,omitempty"` // the delay expression as written
	Base        string `json:"base,omitempty"` // the first delay, when a constant
	Cap         string `json:"cap,omitempty"`  // the largest delay, when a constant caps it
	Growth      string `json:"growth"`         // absent, fixed, growing, server or unknown
	Cancellable bool   `json:"cancellable"`
	// Text words the delay for a reader: "fixed 1 s", "200–400 ms
	// jittered", "exponential 100 ms → 10 s, full jitter".
	Text string `json:"text"`
}

// Context is the deadline the attempts run under.
type Context struct {
	Kind           string `json:"kind"`      // none, caller, set or unknown
	Consulted      bool   `json:"consulted"` // checked between attempts
	AttemptTimeout bool   `json:"attemptTimeout"`
	// Text words it for a reader: "the caller's, checked between
	// attempts", "none (context.Background)".
	Text string `json:"text"`
}

// Layer is one retry layer of a chain.
type Layer struct {
	Function string `json:"function"`
	Pos      string `json:"pos,omitempty"` // the retry site of the layer, when in view
	Attempts Count  `json:"attempts"`
	Budget   bool   `json:"budget"`
	Client   bool   `json:"client,omitempty"` // a client's built-in retries
}

// Worst is the most attempts one call of the site makes on the
// dependency: the product of the attempts of its layers.
type Worst struct {
	Chain     string `json:"chain"`     // "3 × 4 × 3"
	Attempts  int    `json:"attempts"`  // the product of the known counts (a lower bound when not Known)
	Known     bool   `json:"known"`     // every count is known and bounded
	Unbounded bool   `json:"unbounded"` // some layer has no limit
	Text      string `json:"text"`      // "3 × 4 × 3 = up to 36"
	Nested    bool   `json:"nested"`    // more than one layer
}

// Risk grades a site from the findings of every check at it and its
// worst case per call (docs/inventory.md, "Risk").
type Risk struct {
	Level   string   `json:"level"` // high, medium or low
	Reasons []string `json:"reasons"`
}

// Build returns the inventory of the root packages of graph: the retry
// sites of the retryloop actions on those packages, each once (a file of
// p is also in "p [p.test]"), riskiest first. rel rewrites file names
// for display.
func Build(graph *checker.Graph, rel func(string) string) *Inventory {
	roots := map[*packages.Package]bool{}
	for _, act := range graph.Roots {
		roots[act.Package] = true
	}
	b := &builder{rel: rel, byPath: map[string]*packages.Package{}, sitesOf: map[*types.Func][]*retryloop.Site{},
		pkgOf: map[*retryloop.Site]*packages.Package{}}
	type rootSite struct {
		s   *retryloop.Site
		pkg *packages.Package
	}
	var mine []rootSite
	for act := range graph.All() {
		res, ok := act.Result.(*retryloop.Result)
		if act.Analyzer != retryloop.Analyzer || !ok || res == nil {
			continue
		}
		p := act.Package
		// The test variant's types differ from the package's; keep the
		// package itself for following calls into it.
		if prev := b.byPath[p.PkgPath]; prev == nil || len(p.ID) < len(prev.ID) {
			b.byPath[p.PkgPath] = p
		}
		for _, s := range sites(res) {
			b.pkgOf[s] = p
			if fn := b.owner(p, s); fn != nil {
				b.sitesOf[fn] = append(b.sitesOf[fn], s)
			}
			if roots[p] {
				mine = append(mine, rootSite{s, p})
			}
		}
	}
	inv := &Inventory{Version: Version, Sites: []*Row{}}
	seen := map[token.Position]*Row{}
	for _, rs := range mine {
		posn := rs.pkg.Fset.Position(rs.s.Pos)
		if strings.HasSuffix(posn.Filename, "_test.go") {
			continue // as in the checks: a test process is not a fleet
		}
		if prev, ok := seen[posn]; ok && len(prev.Package) <= len(rs.pkg.ID) {
			continue
		}
		r := b.row(rs.pkg, rs.s)
		if prev, ok := seen[posn]; ok {
			*prev = *r
			continue
		}
		seen[posn] = r
		inv.Sites = append(inv.Sites, r)
	}
	attribute(inv.Sites, findingsOf(graph, rel))
	for _, r := range inv.Sites {
		r.Risk, r.baseLevel = grades(r)
	}
	sortRows(inv.Sites)
	return inv
}

// sites returns the retry sites of a result: every site, and the library
// sites no check has a finding on.
func sites(res *retryloop.Result) []*retryloop.Site {
	return slices.Concat(res.Sites, res.Quiet)
}

type builder struct {
	rel     func(string) string
	byPath  map[string]*packages.Package
	sitesOf map[*types.Func][]*retryloop.Site // the sites each declared function holds
	pkgOf   map[*retryloop.Site]*packages.Package
}

// owner returns the declared function holding s (directly or in a
// function literal), or nil at package level.
func (b *builder) owner(p *packages.Package, s *retryloop.Site) *types.Func {
	if s.File == nil {
		return nil
	}
	for _, d := range s.File.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= s.Pos && s.Pos < fd.End() {
			fn, _ := p.TypesInfo.Defs[fd.Name].(*types.Func)
			return fn
		}
	}
	return nil
}

// function names the code holding s.
func (b *builder) function(p *packages.Package, s *retryloop.Site) string {
	fn := b.owner(p, s)
	if fn == nil {
		return p.Name + " (package level)"
	}
	name := retryloop.FuncName(fn)
	if _, lit := s.Func.(*ast.FuncLit); lit {
		name += " (func literal)"
	}
	return name
}

func (b *builder) row(p *packages.Package, s *retryloop.Site) *Row {
	posn := p.Fset.Position(s.Pos)
	r := &Row{
		pos:      posn,
		start:    p.Fset.Position(s.Node.Pos()),
		end:      p.Fset.Position(s.Node.End()),
		Pos:      posString(b.rel, posn),
		File:     b.rel(posn.Filename),
		Line:     posn.Line,
		Col:      posn.Column,
		Package:  p.ID,
		Function: b.function(p, s),
		Shape:    s.Shape.String(),
		Consume:  s.Consume,
		Library:  s.Library,
		Attempts: countOf(s.Attempts),
		Bound:    s.Bound.String(),
		Jitter:   s.Jittered(),
		Budget:   s.Budgeted(),
		Deadline: Context{Kind: s.Ctx.Attempts.String(), Consulted: s.Ctx.Consulted, AttemptTimeout: s.Ctx.AttemptTimeout},
	}
	if _, file := s.Node.(*ast.File); file {
		// A service config stands for a file's configs: its own
		// syntax is the config, not the file.
		r.start, r.end = posn, p.Fset.Position(s.End)
	}
	r.Operation = operation(s)
	r.Remote = remote(p.TypesInfo, s)
	r.Delay = delay(p.TypesInfo, s)
	r.Delay.Text = delayWords(p.TypesInfo, s, r.Delay)
	r.Deadline.Text = deadlineWords(s, r.Delay)
	r.AttemptsText = attemptsWords(p.TypesInfo, s, r.Attempts)
	r.IdempotencyKey = idempotencyKey(s)
	r.Layers = b.layers(p, s)
	r.WorstCase = worstOf(r.Layers)
	r.Findings = []Finding{}
	return r
}

// layers follows the worst chain of s inwards, naming each layer by the
// site it reaches where that site is in view (a function of a loaded
// package, through wrappers), and by the model's owner name otherwise.
func (b *builder) layers(p *packages.Package, s *retryloop.Site) []*Layer {
	out := []*Layer{b.layerOf(p, s)}
	cur, pkg := s, p
	for in := s.Worst(); in != nil; {
		next, npkg := b.reached(pkg, cur, in)
		if next == nil || next.Attempts != in.Chain[0] || len(out) > 32 {
			// Out of view (a client, a library, a package not loaded
			// from source): the counts are the model's, the innermost
			// is its owner.
			for i, n := range in.Chain {
				l := &Layer{Function: "?", Attempts: countOf(n), Client: in.Client && i == len(in.Chain)-1}
				if i == len(in.Chain)-1 {
					l.Function, l.Budget = in.Owner, in.Budget
				}
				out = append(out, l)
			}
			break
		}
		out = append(out, b.layerOf(npkg, next))
		cur, pkg, in = next, npkg, next.Worst()
	}
	return out
}

func (b *builder) layerOf(p *packages.Package, s *retryloop.Site) *Layer {
	l := &Layer{Function: b.function(p, s), Pos: posString(b.rel, p.Fset.Position(s.Pos)), Attempts: countOf(s.Attempts), Budget: s.Budgeted()}
	if s.Shape == retryloop.ShapeLibrary && s.LibOp == nil {
		// A client's own retries: the layer is the client, not the
		// function calling it (the layer outside).
		l.Function, l.Client = "the "+s.Library+" client", true
	}
	return l
}

// reached returns the retry site that layer in of site s reaches: a site
// at its position (a nested loop, a library or helper call of s's
// package), or the outermost site of the function it calls, through
// wrappers.
func (b *builder) reached(p *packages.Package, s *retryloop.Site, in *retryloop.Layer) (*retryloop.Site, *packages.Package) {
	for _, t := range b.sitesIn(p) {
		if t != s && (t.Pos == in.Pos || t.Node.Pos() == in.Pos) {
			return t, p
		}
	}
	var fn *types.Func
	if in.Pos == s.Pos && s.LibOp != nil {
		fn = funcOf(p.TypesInfo, s.LibOp) // a library retrying a named function
	} else if c := callAt(s.File, in.Pos); c != nil {
		fn = funcOf(p.TypesInfo, c.Fun)
	}
	return b.siteOfFunc(fn, in.Chain, map[*types.Func]bool{})
}

func (b *builder) sitesIn(p *packages.Package) []*retryloop.Site {
	var out []*retryloop.Site
	for s, q := range b.pkgOf {
		if q == p {
			out = append(out, s)
		}
	}
	return out
}

// siteOfFunc returns the outermost site of fn whose chain is chain, or
// that of a function fn calls (fn being a wrapper).
func (b *builder) siteOfFunc(fn *types.Func, chain []int, seen map[*types.Func]bool) (*retryloop.Site, *packages.Package) {
	if fn == nil || seen[fn.Origin()] || len(seen) > 64 {
		return nil, nil
	}
	fn = fn.Origin()
	seen[fn] = true
	for _, t := range b.sitesOf[fn] {
		if slices.Equal(t.Chain(), chain) {
			return t, b.pkgOf[t]
		}
	}
	p := b.byPath[pkgPath(fn)]
	decl := funcDecl(p, fn)
	if decl == nil || decl.Body == nil {
		return nil, nil
	}
	var found *retryloop.Site
	var fp *packages.Package
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && found == nil {
			found, fp = b.siteOfFunc(funcOf(p.TypesInfo, c.Fun), chain, seen)
		}
		return found == nil
	})
	return found, fp
}

func worstOf(layers []*Layer) Worst {
	chain := make([]int, len(layers))
	for i, l := range layers {
		switch {
		case l.Attempts.Unbounded:
			chain[i] = retryloop.AttemptsUnbounded
		default:
			chain[i] = l.Attempts.N
		}
	}
	n, known, unbounded := retryloop.Product(chain)
	w := Worst{Chain: retryloop.ChainString(chain), Attempts: n, Known: known, Unbounded: unbounded, Nested: len(chain) > 1}
	switch {
	case unbounded:
		w.Text = "unbounded"
	case known:
		w.Text = "up to " + itoa(n)
	case !w.Nested:
		w.Text = "?"
	default:
		w.Text = "at least " + itoa(n)
	}
	if w.Nested {
		w.Text = w.Chain + " = " + w.Text
	}
	return w
}
