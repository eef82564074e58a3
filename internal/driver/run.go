package driver

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/internal/inventory"
)

// run is the state of one standalone invocation.
type run struct {
	stdout, stderr io.Writer
	code           int
	opts           *options
	cwd            string
	files          map[string][]byte   // source contents, read once
	lines          map[string][]string // source lines, split once
}

// A finding is one diagnostic of a root action, after deduplication.
type finding struct {
	analyzer   *analysis.Analyzer
	pkg        *packages.Package
	diag       analysis.Diagnostic
	posn, end  token.Position
	fp         fingerprint
	fixApplied bool
	// sites are every site a grouped finding stands for (its Related
	// lists at most ten): nil for a finding of one site. group names
	// its root cause when that is out of view and the finding stands
	// at its first site.
	sites []analysis.RelatedInformation
	group string
	// legacy are the fingerprints its sites had as findings of their
	// own, before grouping: a baseline that holds them all holds it.
	legacy []string
}

// groups is how a reporting analyzer's result gives the sites of its
// grouped diagnostics (the analyzers' diag.Groups).
type groups interface {
	GroupSites(pos token.Pos, category string) []analysis.RelatedInformation
	GroupName(pos token.Pos, category string) string
}

func (d *run) main(args []string, all []*analysis.Analyzer) error {
	opts, err := parseFlags(args, all, d.stderr)
	if err != nil {
		return err
	}
	d.opts = opts
	if opts.showVersion {
		fmt.Fprintf(d.stdout, "retrylint version %s\n", version())
		return nil
	}
	if err := analysis.Validate(opts.analyzers); err != nil {
		return fmt.Errorf("internal error: %v", err)
	}
	if d.cwd, err = os.Getwd(); err != nil {
		return err
	}
	d.files = make(map[string][]byte)
	d.lines = make(map[string][]string)

	// Read the baseline before the expensive load, so that a
	// malformed one fails fast.
	var base *baseline
	if opts.baseline != "" && !opts.baselineWrite {
		if base, err = readBaseline(opts.baseline); err != nil {
			return err
		}
	}

	var invBase *inventory.Inventory
	if opts.inventoryBase != "" {
		if invBase, err = inventory.ReadBase(opts.inventoryBase); err != nil {
			return err
		}
	}

	pkgs, err := d.load()
	if err != nil {
		return err
	}
	d.warnUnseen(pkgs, all)
	guardPanics(opts.analyzers)
	if opts.inventory != "" {
		opts.analyzers = inventory.Require(opts.analyzers)
	}
	graph, err := checker.Analyze(opts.analyzers, pkgs, nil)
	if err != nil {
		return err
	}
	if err := analysisErrors(graph); err != nil {
		return err
	}
	if invBase != nil { // not a lint either
		return inventory.WriteReview(d.stdout, invBase, inventory.Build(graph, d.rel))
	}
	if opts.inventory != "" { // not a lint: exit 0 whatever it lists
		return inventory.Write(d.stdout, opts.inventory, graph, d.rel)
	}
	findings := d.collect(graph)
	d.fingerprint(findings)

	if opts.baselineWrite {
		if err := writeBaseline(opts.baseline, findings); err != nil {
			return err
		}
		fmt.Fprintf(d.stderr, "retrylint: recorded %d findings in %s\n", len(findings), opts.baseline)
		return nil
	}
	if base != nil {
		findings = base.filter(findings)
	}

	pending := false // -fix -diff printed changes that are not applied
	if opts.fix {
		var changed bool
		if changed, err = d.applyFixes(findings); err != nil {
			return err
		}
		pending = opts.diff && changed
		findings = slices.DeleteFunc(findings, func(f *finding) bool { return f.fixApplied })
		d.noteUnfixable(findings)
	}

	out := d.stdout
	if opts.diff {
		out = d.stderr // stdout holds the patch
	}
	if err := d.print(out, findings); err != nil {
		return err
	}
	if len(findings) > 0 || pending {
		d.code = ExitFindings
	}
	return nil
}

// load loads the packages named by the patterns. It fails on any
// package error (syntax, type, missing import) in the whole import
// graph, one line per broken package: analysis of a broken package
// would be silently incomplete.
func (d *run) load() ([]*packages.Package, error) {
	// Facts flow only if dependencies are analyzed from source too.
	mode := packages.LoadSyntax
	if needFacts(d.opts.analyzers) {
		mode = packages.LoadAllSyntax
	}
	cfg := &packages.Config{
		Mode:  mode | packages.NeedModule,
		Tests: d.wantTests(),
	}
	if d.opts.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + d.opts.tags}
	}
	pkgs, err := packages.Load(cfg, d.opts.patterns...)
	if err != nil {
		// go/packages wraps the go command's own words ("err: exit
		// status 1: stderr: go: go.mod file not found ..."): print those.
		msg := err.Error()
		if _, stderr, ok := strings.Cut(msg, "stderr: "); ok && strings.TrimSpace(stderr) != "" {
			return nil, errors.New(firstLine(stderr))
		}
		return nil, fmt.Errorf("loading packages: %s", firstLine(msg))
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s matched no packages", strings.Join(d.opts.patterns, " "))
	}

	// An error in a dependency also fails its importers with
	// "could not import"; name the cause, not every victim.
	var errs, victims []string
	seen := make(map[string]bool)
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		msg := d.packageError(p)
		if msg == "" || seen[msg] {
			return
		}
		seen[msg] = true
		if importErrorsOnly(p) {
			victims = append(victims, msg)
		} else {
			errs = append(errs, msg)
		}
	})
	if len(errs) == 0 {
		errs = victims
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}

	// Skip the synthesized test main packages: their only file is
	// generated by the go command and lives in its cache.
	return slices.DeleteFunc(pkgs, func(p *packages.Package) bool {
		return strings.HasSuffix(p.ID, ".test")
	}), nil
}

// wantTests reports whether test packages are worth loading: with -test
// on, only when a selected analyzer analyses _test.go files (its
// -NAME.tests flag, off by default). Otherwise loading them would find
// nothing to report and fail on a module whose tests do not build on
// their own (mocks made by go generate and not committed).
func (d *run) wantTests() bool {
	if !d.opts.tests {
		return false
	}
	for _, a := range d.opts.analyzers {
		f := a.Flags.Lookup("tests")
		if f == nil || f.Value.String() == "true" {
			return true
		}
	}
	return false
}

// An unseener is a flag value whose entries name functions or packages;
// Unseen returns a warning for each entry that names nothing in pkgs
// (the loaded packages and their dependencies, by path).
type unseener interface {
	Unseen(pkgs map[string]*types.Package) []string
}

// warnUnseen warns, on stderr, about option entries that name no
// function or package of the loaded packages: a misspelled budget check
// would otherwise silently count for nothing. Only the standalone driver
// sees every package at once, so only it warns.
func (d *run) warnUnseen(roots []*packages.Package, all []*analysis.Analyzer) {
	pkgs := make(map[string]*types.Package)
	var addTypes func(*types.Package)
	addTypes = func(p *types.Package) {
		if p == nil || pkgs[p.Path()] != nil {
			return
		}
		pkgs[p.Path()] = p
		for _, imp := range p.Imports() {
			addTypes(imp)
		}
	}
	packages.Visit(roots, nil, func(p *packages.Package) { addTypes(p.Types) })
	for _, a := range all {
		a.Flags.VisitAll(func(f *flag.Flag) {
			if u, ok := f.Value.(unseener); ok {
				for _, w := range u.Unseen(pkgs) {
					fmt.Fprintf(d.stderr, "retrylint: warning: -%s.%s: %s\n", a.Name, f.Name, w)
				}
			}
		})
	}
}

// packageError returns one line describing the errors of p, or "".
//
// The go command often reports one problem several ways: a type error
// also appears in the compiler output of a list error ("# pkg\n..."),
// a missing module as a list error and as "could not import". The line
// names the most telling error and counts the others.
func (d *run) packageError(p *packages.Package) string {
	if len(p.Errors) == 0 {
		return ""
	}
	rank := func(e packages.Error) int {
		switch {
		case e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# "):
			return 4 // compiler output repeating the errors below
		case e.Kind == packages.ListError:
			return 0 // what go itself prints (an empty file: expected 'package')
		case e.Kind == packages.ParseError:
			return 1
		case e.Kind == packages.TypeError:
			return 2
		}
		return 3
	}
	errs := slices.Clone(p.Errors)
	slices.SortStableFunc(errs, func(a, b packages.Error) int { return cmp.Compare(rank(a), rank(b)) })
	e := errs[0]
	msg := e.Msg
	if strings.HasPrefix(msg, "# ") { // "# pkg" then the compiler's lines
		_, msg, _ = strings.Cut(msg, "\n")
	}
	msg = strings.TrimSuffix(firstLine(msg), "; to add it:")
	if e.Pos != "" && e.Pos != "-" {
		msg = d.relPos(e.Pos) + ": " + msg
	} else if !strings.Contains(msg, p.PkgPath) {
		msg = p.PkgPath + ": " + msg
	}
	n := -1 // the others, not counting compiler output that repeats them
	for _, e := range errs {
		if rank(e) < 4 || len(errs) == 1 {
			n++
		}
	}
	if n == 1 {
		msg += " (and 1 more error)"
	} else if n > 1 {
		msg += fmt.Sprintf(" (and %d more errors)", n)
	}
	return msg
}

func importErrorsOnly(p *packages.Package) bool {
	for _, e := range p.Errors {
		if e.Kind != packages.TypeError || !strings.HasPrefix(e.Msg, "could not import ") {
			return false
		}
	}
	return true
}

// needFacts reports whether any of the analyzers, or those they
// require, uses facts.
func needFacts(analyzers []*analysis.Analyzer) bool {
	found := false
	visitAnalyzers(analyzers, func(a *analysis.Analyzer) { found = found || len(a.FactTypes) > 0 })
	return found
}

func visitAnalyzers(roots []*analysis.Analyzer, f func(*analysis.Analyzer)) {
	seen := make(map[*analysis.Analyzer]bool)
	var visit func([]*analysis.Analyzer)
	visit = func(as []*analysis.Analyzer) {
		for _, a := range as {
			if !seen[a] {
				seen[a] = true
				f(a)
				visit(a.Requires)
			}
		}
	}
	visit(roots)
}

var guarded = struct {
	sync.Mutex
	m map[*analysis.Analyzer]bool
}{m: make(map[*analysis.Analyzer]bool)}

// guardPanics makes each analyzer's Run turn a panic into an error.
//
// The checker runs analyzers on goroutines of its own without a
// recover, so a panicking analyzer would otherwise kill the process
// with a stack trace; so does unitchecker under go vet. Wrapping Run in
// place is the only hook; it is done once per analyzer.
func guardPanics(analyzers []*analysis.Analyzer) {
	guarded.Lock()
	defer guarded.Unlock()
	visitAnalyzers(analyzers, func(a *analysis.Analyzer) {
		if guarded.m[a] {
			return
		}
		guarded.m[a] = true
		run := a.Run
		a.Run = func(pass *analysis.Pass) (_ any, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("internal error: panic: %s", firstLine(fmt.Sprint(r)))
				}
			}()
			return run(pass)
		}
	})
}

// analysisErrors returns the errors of failed actions, leaving out
// the knock-on "failed prerequisites" of their dependents.
func analysisErrors(graph *checker.Graph) error {
	var errs []string
	for act := range graph.All() {
		if act.Err != nil && !strings.HasPrefix(act.Err.Error(), "failed prerequisites") {
			errs = append(errs, fmt.Sprintf("analyzer %s failed on %s: %s",
				act.Analyzer.Name, act.Package.PkgPath, firstLine(act.Err.Error())))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	slices.Sort(errs)
	return fmt.Errorf("%s", strings.Join(slices.Compact(errs), "\n"))
}

// collect gathers the diagnostics of the root actions, deduplicated by
// position: a file belongs to both p and "p [p.test]".
func (d *run) collect(graph *checker.Graph) []*finding {
	type key struct {
		posn, end token.Position
		analyzer  string
		message   string
	}
	seen := make(map[key]*finding)
	var out []*finding
	for _, act := range graph.Roots {
		grp, _ := act.Result.(groups)
		for _, diag := range act.Diagnostics {
			fset := act.Package.Fset
			f := &finding{
				analyzer: act.Analyzer,
				pkg:      act.Package,
				diag:     diag,
				posn:     fset.Position(diag.Pos),
				end:      fset.Position(cmp.Or(diag.End, diag.Pos)),
			}
			if grp != nil {
				f.sites = grp.GroupSites(diag.Pos, diag.Category)
				f.group = grp.GroupName(diag.Pos, diag.Category)
			}
			k := key{f.posn, f.end, f.analyzer.Name, diag.Message}
			if prev, ok := seen[k]; ok {
				// Prefer the package without the test variant suffix.
				if len(f.pkg.ID) < len(prev.pkg.ID) {
					*prev = *f
				}
				continue
			}
			seen[k] = f
			out = append(out, f)
		}
	}
	slices.SortFunc(out, compareFindings)
	return out
}

func compareFindings(a, b *finding) int {
	return cmp.Or(
		cmp.Compare(a.posn.Filename, b.posn.Filename),
		cmp.Compare(a.posn.Offset, b.posn.Offset),
		cmp.Compare(a.end.Offset, b.end.Offset),
		cmp.Compare(a.analyzer.Name, b.analyzer.Name),
		cmp.Compare(a.diag.Message, b.diag.Message),
	)
}

// readFile returns the content of a source file, cached.
func (d *run) readFile(name string) []byte {
	data, ok := d.files[name]
	if !ok {
		data, _ = os.ReadFile(name)
		d.files[name] = data
	}
	return data
}

// fileLines returns the lines of a source file, split once: the
// fingerprint and the context lines of every finding need them, and a
// file may hold thousands of findings.
func (d *run) fileLines(name string) []string {
	lines, ok := d.lines[name]
	if !ok {
		lines = strings.Split(string(d.readFile(name)), "\n")
		d.lines[name] = lines
	}
	return lines
}

// syntax returns the parsed file of pkg named filename, if any.
func syntax(pkg *packages.Package, filename string) *ast.File {
	for _, f := range pkg.Syntax {
		if pkg.Fset.File(f.FileStart).Name() == filename {
			return f
		}
	}
	return nil
}

// rel returns filename relative to the working directory when it is
// inside it, and unchanged otherwise.
func (d *run) rel(filename string) string {
	if r, err := filepath.Rel(d.cwd, filename); err == nil && filepath.IsLocal(r) {
		return r
	}
	return filename
}

// relPos rewrites the file name of a "file:line:col" or "file:line"
// position; the file name itself may contain colons.
func (d *run) relPos(pos string) string {
	file, suffix := pos, ""
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 || !isDigits(file[i+1:]) {
			break
		}
		file, suffix = file[:i], file[i:]+suffix
	}
	return d.rel(file) + suffix
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func posString(p token.Position, rel func(string) string) string {
	return fmt.Sprintf("%s:%d:%d", rel(p.Filename), p.Line, p.Column)
}
