// Package fixes holds the edits the reporting analyzers' suggested fixes
// share: importing the budget library once (reusing an import, aliasing
// around a clash), indentation, zero values, fresh names.
package fixes

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"sync"
	"weak"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// BudgetPath is the import path of the bundled retry-budget library.
const BudgetPath = astq.BudgetPath

// MaxAttempts is the most attempts a fix hands to the budget library
// (budget.WithAttempts, budget.Backoff): its own ceiling. A loop that
// makes more keeps its shape.
const MaxAttempts = 10

// FileOf returns the syntax file of the pass that contains pos.
func FileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// Editable reports whether fixes may edit the file holding pos: it exists
// in the pass and is not generated.
func Editable(pass *analysis.Pass, pos token.Pos) bool {
	f := FileOf(pass, pos)
	return f != nil && !ast.IsGenerated(f)
}

// Import returns the name under which file refers to the package path,
// adding the import if needed. The import is added as its own group at the
// end of the import block, so gofmt leaves it in place. When the preferred
// name is taken at any of the use positions (a local variable named
// budget, another import), the import is aliased.
func Import(pass *analysis.Pass, file *ast.File, path, preferred string, uses ...token.Pos) (string, []analysis.TextEdit) {
	for _, imp := range file.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p != path {
			continue
		}
		if imp.Name != nil {
			if imp.Name.Name == "_" || imp.Name.Name == "." {
				continue
			}
			return imp.Name.Name, nil
		}
		return preferred, nil
	}
	name := preferred
	for i := 0; taken(pass, file, name, uses); i++ {
		name = preferred + "lib"
		if i > 0 {
			name = fmt.Sprintf("%slib%d", preferred, i+1)
		}
	}
	spec := strconv.Quote(path)
	if name != preferred {
		spec = name + " " + spec
	}
	// Append to the last import declaration, as a group of its own.
	var last *ast.GenDecl
	for _, d := range file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			last = gd
		}
	}
	switch {
	case last == nil:
		return name, []analysis.TextEdit{{Pos: file.Name.End(), End: file.Name.End(), NewText: []byte("\n\nimport " + spec)}}
	case last.Lparen.IsValid() && !strings.Contains(path, "."):
		// A standard-library package joins the first group (gofmt sorts
		// it), at a place no third-party import edit uses.
		first := file.Decls[0].(*ast.GenDecl)
		for _, d := range file.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				first = gd
				break
			}
		}
		if first.Lparen.IsValid() {
			at := first.Lparen + 1
			return name, []analysis.TextEdit{{Pos: at, End: at, NewText: []byte("\n\t" + spec)}}
		}
		end := last.Specs[len(last.Specs)-1].End()
		return name, []analysis.TextEdit{{Pos: end, End: end, NewText: []byte("\n\t" + spec)}}
	case last.Lparen.IsValid():
		end := last.Specs[len(last.Specs)-1].End()
		return name, []analysis.TextEdit{{Pos: end, End: end, NewText: []byte("\n\n\t" + spec)}}
	default:
		// import "x" → import ("x"; spec)
		s := last.Specs[0]
		return name, []analysis.TextEdit{
			{Pos: s.Pos(), End: s.Pos(), NewText: []byte("(\n\t")},
			{Pos: s.End(), End: s.End(), NewText: []byte("\n\n\t" + spec + "\n)")},
		}
	}
}

// taken reports whether name is declared in the file's scope or any scope
// at the use positions.
func taken(pass *analysis.Pass, file *ast.File, name string, uses []token.Pos) bool {
	for _, imp := range file.Imports {
		if imp.Name != nil && imp.Name.Name == name {
			return true
		}
		if imp.Name == nil {
			if p, err := strconv.Unquote(imp.Path.Value); err == nil {
				if last := p[strings.LastIndex(p, "/")+1:]; last == name {
					return true
				}
			}
		}
	}
	if pass.Pkg.Scope().Lookup(name) != nil {
		return true
	}
	for _, pos := range uses {
		if s := pass.Pkg.Scope().Innermost(pos); s != nil {
			if _, obj := s.LookupParent(name, pos); obj != nil {
				return true
			}
		}
	}
	return false
}

// FreeName returns base, or base2, base3, ... whichever is not declared
// in the scope at pos (nor used as a package name in the file).
func FreeName(pass *analysis.Pass, file *ast.File, base string, pos token.Pos) string {
	name := base
	for i := 2; taken(pass, file, name, []token.Pos{pos}) || declaredInside(pass, name, pos); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	return name
}

// declaredInside reports whether name is declared in a scope nested in the
// scope at pos (a later shadowing would change what the new name means).
func declaredInside(pass *analysis.Pass, name string, pos token.Pos) bool {
	s := pass.Pkg.Scope().Innermost(pos)
	if s == nil {
		return false
	}
	var walk func(*types.Scope) bool
	walk = func(s *types.Scope) bool {
		if s.Lookup(name) != nil {
			return true
		}
		for i := 0; i < s.NumChildren(); i++ {
			if walk(s.Child(i)) {
				return true
			}
		}
		return false
	}
	return walk(s)
}

// CommentIn reports whether a comment of the file lies in [from, to): an
// edit replacing that range would drop it.
func CommentIn(f *ast.File, from, to token.Pos) bool {
	for _, cg := range f.Comments {
		if cg.Pos() < to && cg.End() > from {
			return true
		}
	}
	return false
}

// sources caches the files the fix builders read. A builder runs once
// per finding and reads its file each time, and pass.ReadFile goes to
// the disk on every call: a file holding thousands of findings was read
// thousands of times. The cache is keyed by pass, so a file is read at
// most once per pass while it stays in the cache; it is small and bounded,
// and holds its passes weakly: a pass that ended is not kept alive with
// its package's syntax and types (in a process that runs the analyses
// again, it held the previous run's program).
var sources struct {
	sync.Mutex
	entries [16]source
	next    int // the entry to replace next, round robin
}

type source struct {
	pass weak.Pointer[analysis.Pass]
	name string
	data []byte
	err  error
}

// Source returns the content of the named file of the pass, as
// pass.ReadFile does, reading it once per pass while it stays cached.
// The caller must not modify the result.
func Source(pass *analysis.Pass, name string) ([]byte, error) {
	key := weak.Make(pass)
	sources.Lock()
	for _, e := range sources.entries {
		if e.pass == key && e.name == name {
			sources.Unlock()
			return e.data, e.err
		}
	}
	sources.Unlock()
	// Read outside the lock: passes of other packages need not wait.
	data, err := pass.ReadFile(name)
	sources.Lock()
	sources.entries[sources.next] = source{key, name, data, err}
	sources.next = (sources.next + 1) % len(sources.entries)
	sources.Unlock()
	return data, err
}

// Indent returns the leading white space of the line holding pos.
func Indent(pass *analysis.Pass, pos token.Pos) string {
	tf := pass.Fset.File(pos)
	if tf == nil {
		return ""
	}
	src, err := Source(pass, tf.Name())
	if err != nil {
		return ""
	}
	off := tf.Offset(pos)
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	i := start
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return string(src[start:i])
}

// LineStart returns the position of the start of the line holding pos.
func LineStart(pass *analysis.Pass, pos token.Pos) token.Pos {
	tf := pass.Fset.File(pos)
	return tf.LineStart(tf.Line(pos))
}

// Text returns the source text of n.
func Text(pass *analysis.Pass, n ast.Node) (string, bool) {
	tf := pass.Fset.File(n.Pos())
	if tf == nil {
		return "", false
	}
	src, err := Source(pass, tf.Name())
	if err != nil {
		return "", false
	}
	s, e := tf.Offset(n.Pos()), tf.Offset(n.End())
	if s < 0 || e > len(src) || s > e {
		return "", false
	}
	return string(src[s:e]), true
}

// Results returns the result list of the function node (FuncDecl or FuncLit).
func Results(pass *analysis.Pass, fn ast.Node) (*types.Tuple, bool) {
	var t types.Type
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		if obj := pass.TypesInfo.Defs[fn.Name]; obj != nil {
			t = obj.Type()
		}
	case *ast.FuncLit:
		t = pass.TypesInfo.TypeOf(fn)
	}
	sig, ok := t.(*types.Signature)
	if !ok {
		return nil, false
	}
	return sig.Results(), true
}

// ReturnErr returns the text of a return statement that gives up with err:
// zero values for every result but the last, which must be error. ok is
// false when the function's results do not end in error or a zero value
// cannot be written.
func ReturnErr(pass *analysis.Pass, file *ast.File, fn ast.Node, errExpr string) (string, bool) {
	res, ok := Results(pass, fn)
	if !ok {
		return "", false
	}
	if res.Len() == 0 {
		return "return", true
	}
	if !types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return "", false
	}
	var parts []string
	for i := 0; i < res.Len()-1; i++ {
		z, ok := Zero(pass, file, res.At(i).Type())
		if !ok {
			return "", false
		}
		parts = append(parts, z)
	}
	parts = append(parts, errExpr)
	return "return " + strings.Join(parts, ", "), true
}

// Zero writes the zero value of t as seen from file.
func Zero(pass *analysis.Pass, file *ast.File, t types.Type) (string, bool) {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		// The underlying type is the constraint: nil would not do for T.
		s, ok := typeString(pass, file, t)
		return "*new(" + s + ")", ok
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false", true
		case u.Info()&types.IsString != 0:
			if _, named := types.Unalias(t).(*types.Named); named {
				s, ok := typeString(pass, file, t)
				return s + `("")`, ok
			}
			return `""`, true
		case u.Info()&types.IsNumeric != 0:
			return "0", true
		}
		return "", false
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil", true
	case *types.Struct, *types.Array:
		s, ok := typeString(pass, file, t)
		if !ok {
			return "", false
		}
		return s + "{}", true
	}
	return "", false
}

// typeString writes t with the package names the file uses; ok is false
// when a package is not imported by the file.
func typeString(pass *analysis.Pass, file *ast.File, t types.Type) (string, bool) {
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == pass.Pkg {
			return ""
		}
		for _, imp := range file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == p.Path() {
				if imp.Name != nil {
					return imp.Name.Name
				}
				return p.Name()
			}
		}
		ok = false
		return p.Name()
	})
	return s, ok
}

// DeclaredBefore reports whether every local variable e refers to is
// declared before pos (so e can be moved to pos).
func DeclaredBefore(pass *analysis.Pass, e ast.Expr, pos token.Pos) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID {
			return ok
		}
		if v, isVar := pass.TypesInfo.Uses[id].(*types.Var); isVar && v.Parent() != pass.Pkg.Scope() && v.Pos() >= pos {
			ok = false
		}
		return ok
	})
	return ok
}

// Path returns the nodes from root down to target (inclusive), or nil.
func Path(root, target ast.Node) []ast.Node {
	var stack, found []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if n == target {
			found = append(append([]ast.Node(nil), stack...), n)
			return false
		}
		if !(n.Pos() <= target.Pos() && target.End() <= n.End()) {
			return false // f(nil) is not called for a node whose children are skipped
		}
		stack = append(stack, n)
		return true
	})
	return found
}

// StmtInList returns the statement holding target that sits directly in a
// statement list (a block or a case clause), seen from root: the place
// where a statement can be inserted before it or it can be replaced.
func StmtInList(root ast.Node, target ast.Node) ast.Stmt {
	p := Path(root, target)
	for i := len(p) - 1; i > 0; i-- {
		st, ok := p[i].(ast.Stmt)
		if !ok {
			continue
		}
		switch p[i-1].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return st
		case *ast.LabeledStmt:
			continue
		}
	}
	return nil
}

// InsertionPoint returns where a statement can go before the loop: before
// its label, if it has one, and before the comment lines introducing it,
// so that they stay with the loop.
func InsertionPoint(pass *analysis.Pass, root ast.Node, loop ast.Node) (token.Pos, bool) {
	p := Path(root, loop)
	if len(p) < 2 {
		return token.NoPos, false
	}
	st, list := loop, len(p)-2
	if ls, ok := p[list].(*ast.LabeledStmt); ok {
		st, list = ls, list-1
		if list < 0 {
			return token.NoPos, false
		}
	}
	var prev token.Pos // where the list starts
	switch parent := p[list].(type) {
	case *ast.BlockStmt:
		prev = parent.Lbrace
	case *ast.CaseClause:
		prev = parent.Colon
	case *ast.CommClause:
		prev = parent.Colon
	default:
		return token.NoPos, false
	}
	stmts := astq.StmtList(p[list])
	for _, x := range stmts {
		if x == st {
			break
		}
		prev = x.End()
	}
	at := LeadingComment(pass, FileOf(pass, st.Pos()), prev, st.Pos())
	return at, !jumpsOver(pass, root, at)
}

// jumpsOver reports whether a goto in root jumps forward over pos: a
// declaration put there would come into scope at the jump's label, which
// Go forbids.
func jumpsOver(pass *analysis.Pass, root ast.Node, pos token.Pos) bool {
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil && b.Pos() < pos {
			if l, ok := pass.TypesInfo.Uses[b.Label].(*types.Label); ok && l.Pos() >= pos {
				found = true
			}
		}
		return !found
	})
	return found
}

// LeadingComment returns where the comment lines right above pos start
// (comments after prev that begin on a line of their own and run up to
// pos's line), or pos when there are none.
func LeadingComment(pass *analysis.Pass, f *ast.File, prev, pos token.Pos) token.Pos {
	tf := pass.Fset.File(pos)
	if f == nil || tf == nil {
		return pos
	}
	start := pos
	for i := len(f.Comments) - 1; i >= 0; i-- {
		cg := f.Comments[i]
		if cg.End() > start || cg.Pos() <= prev {
			continue
		}
		if tf.Line(cg.End())+1 != tf.Line(start) || tf.Line(cg.Pos()) == tf.Line(prev) {
			break
		}
		start = cg.Pos()
	}
	return start
}

// AfterTrailingComment returns the end of a comment that follows pos on
// its line (resp, err := c.Get(u) // one attempt), or pos.
func AfterTrailingComment(pass *analysis.Pass, f *ast.File, pos token.Pos) token.Pos {
	tf := pass.Fset.File(pos)
	for _, cg := range f.Comments {
		if cg.Pos() >= pos && tf.Line(cg.Pos()) == tf.Line(pos) {
			return cg.End()
		}
	}
	return pos
}

// InLoop reports whether target lies inside a loop below root (other than
// target itself).
func InLoop(root ast.Node, target ast.Node) bool {
	for _, n := range Path(root, target) {
		if n == target {
			break
		}
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}
