package libmodel

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"golang.org/x/tools/go/ast/astutil"
	"slices"
	"strconv"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"github.com/retrylint/retrylint/analyzers/internal/follow"
)

// scope is what Sites knows about one function: where each local variable
// gets its value and what is done to it afterwards.
type scope struct {
	env   *Env
	file  *ast.File
	fn    ast.Node
	ftype *ast.FuncType
	body  *ast.BlockStmt

	// init is the single value of a variable assigned exactly once.
	init map[*types.Var]ast.Expr
	// unsure marks variables whose value cannot be followed: assigned more
	// than once, assigned from a tuple, or whose address escapes.
	unsure map[*types.Var]bool
	// fields are assignments v.F = x to fields of a variable.
	fields map[*types.Var][]*ast.AssignStmt
	// calls are method calls v.M(...) on a variable, in source order.
	calls map[*types.Var][]*ast.CallExpr
	// handed are calls of functions the model does not know that a
	// library value held by reference is handed to (configure(client)):
	// they may change it.
	handed map[*types.Var][]*ast.CallExpr
}

func newScope(env *Env, file *ast.File, fn ast.Node, ftype *ast.FuncType, body *ast.BlockStmt) *scope {
	s := &scope{
		env: env, file: file, fn: fn, ftype: ftype, body: body,
		init:   make(map[*types.Var]ast.Expr),
		unsure: make(map[*types.Var]bool),
		fields: make(map[*types.Var][]*ast.AssignStmt),
		calls:  make(map[*types.Var][]*ast.CallExpr),
		handed: make(map[*types.Var][]*ast.CallExpr),
	}
	// libArg holds the &v handed straight to a library call; a call is
	// visited before its arguments, so they are marked in time.
	libArg := make(map[*ast.UnaryExpr]bool)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			s.readAssign(n)
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
				s.assign(id, nil)
			}
		case *ast.ValueSpec:
			s.readValueSpec(n)
		case *ast.UnaryExpr:
			if n.Op == token.AND && !libArg[n] {
				s.readAddressTaken(n)
			}
		case *ast.CallExpr:
			s.readCall(n, libArg)
		}
		return true
	})
	return s
}

// assign records rhs as a value of the variable id names; a second value,
// or one that cannot be read (rhs nil), makes the variable unsure.
func (s *scope) assign(id *ast.Ident, rhs ast.Expr) {
	v, ok := s.obj(id).(*types.Var)
	if !ok {
		return
	}
	if _, seen := s.init[v]; seen || rhs == nil {
		s.unsure[v] = true
		return
	}
	s.init[v] = rhs
}

func (s *scope) readAssign(n *ast.AssignStmt) {
	if len(n.Lhs) != len(n.Rhs) {
		// v, err := f(): the call makes the first value.
		call, isCall := ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
		for i, l := range n.Lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok {
				if i == 0 && isCall && len(n.Rhs) == 1 {
					s.assign(id, call)
				} else {
					s.assign(id, nil)
				}
			}
		}
		return
	}
	for i, l := range n.Lhs {
		switch l := ast.Unparen(l).(type) {
		case *ast.Ident:
			if n.Tok == token.DEFINE || n.Tok == token.ASSIGN {
				s.assign(l, n.Rhs[i])
			} else {
				s.assign(l, nil) // v += x: a value we do not compute
			}
		case *ast.SelectorExpr:
			if v := s.rootVar(l.X); v != nil {
				s.fields[v] = append(s.fields[v], n)
			}
		}
	}
}

func (s *scope) readValueSpec(n *ast.ValueSpec) {
	for i, id := range n.Names {
		switch {
		case len(n.Values) == len(n.Names):
			s.assign(id, n.Values[i])
		case len(n.Values) == 1 && i == 0:
			if call, ok := ast.Unparen(n.Values[0]).(*ast.CallExpr); ok {
				s.assign(id, call)
			} else {
				s.assign(id, nil)
			}
		case len(n.Values) != 0:
			s.assign(id, nil)
		}
	}
}

// readAddressTaken makes a variable whose address escapes unsure: it may
// change behind the scope's back. Pointer-like values already share.
func (s *scope) readAddressTaken(n *ast.UnaryExpr) {
	if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
		if v, ok := s.obj(id).(*types.Var); ok && !isPointerish(v.Type()) {
			s.unsure[v] = true
		}
	}
}

func (s *scope) readCall(n *ast.CallExpr, libArg map[*ast.UnaryExpr]bool) {
	// &b handed straight to a library call (backoff.Retry(op, &b))
	// does not let b change behind the scope's back.
	if fn := s.callee(n); fn != nil && fn.Pkg() != nil && isLibraryPath(fn.Pkg().Path()) {
		for _, a := range n.Args {
			if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
				libArg[u] = true
			}
		}
	} else {
		for _, a := range n.Args {
			if v := s.localVar(a); v != nil && isPointerish(v.Type()) && fromLibrary(v.Type()) {
				s.handed[v] = append(s.handed[v], n)
			}
		}
	}
	if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
		if v := s.localVar(sel.X); v != nil {
			if _, isMethod := s.env.Info.Selections[sel]; isMethod {
				s.calls[v] = append(s.calls[v], n)
			}
		}
	}
}

func isPointerish(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Signature, *types.Map, *types.Chan, *types.Slice:
		return true
	}
	return false
}

func (s *scope) obj(id *ast.Ident) types.Object {
	if o := s.env.Info.Defs[id]; o != nil {
		return o
	}
	return s.env.Info.Uses[id]
}

// localVar returns the variable e names, if it is a plain identifier.
func (s *scope) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := s.obj(id).(*types.Var)
	return v
}

// rootVar returns v for v, v.f, v.f.g.
func (s *scope) rootVar(e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := s.obj(x).(*types.Var)
			return v
		case *ast.SelectorExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// callee returns the function or method a call statically calls, or nil.
func (s *scope) callee(call *ast.CallExpr) *types.Func {
	fn := astq.Callee(s.env.Info, call)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

func recvName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t := t.(type) {
	case *types.Named:
		return t.Obj().Name()
	case *types.Alias:
		return t.Obj().Name()
	}
	return ""
}

// objIs reports whether e refers to the package-level object pkgPath.name.
func (s *scope) objIs(e ast.Expr, pkgPath, name string) bool {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	case *ast.IndexExpr: // generic function value
		return s.objIs(x.X, pkgPath, name)
	default:
		return false
	}
	o := s.obj(id)
	if f, ok := o.(*types.Func); ok {
		o = f.Origin()
	}
	return o != nil && o.Pkg() != nil && o.Pkg().Path() == pkgPath && o.Name() == name && o.Parent() == o.Pkg().Scope()
}

// resolve follows e through parentheses, & and variables assigned once, to
// the expression that made the value. ok is false when the value comes from
// somewhere the scope cannot see (a parameter, a field, a variable assigned
// twice).
func (s *scope) resolve(e ast.Expr) (ast.Expr, bool) {
	for range 8 {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return e, true
		}
		v, ok := s.obj(id).(*types.Var)
		if !ok {
			return e, true // a constant, a function, nil
		}
		if s.unsure[v] {
			return e, false
		}
		if x, ok := s.init[v]; ok {
			e = x
			continue
		}
		if x := s.pkgVarInit(v); x != nil {
			e = x
			continue
		}
		return e, false
	}
	return e, false
}

// pkgVarInit returns the initialiser of a package-level variable declared in
// the file, provided no function of the file assigns to it.
func (s *scope) pkgVarInit(v *types.Var) ast.Expr {
	if v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	var init ast.Expr
	for _, f := range s.files() {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if s.env.Info.Defs[id] == v && len(vs.Values) == len(vs.Names) {
						init = vs.Values[i]
					}
				}
			}
		}
	}
	if init == nil {
		return nil
	}
	assigned := false
	for _, f := range s.files() {
		ast.Inspect(f, s.assignsTo(v, &assigned))
	}
	if assigned {
		return nil
	}
	return init
}

// assignsTo returns an inspector setting *assigned when it meets an
// assignment to v or to a field or element of it, a use of its address, or
// a configuring method call on it (Set*, Add*, With*...): a package-level
// variable changed anywhere is not known by its initialiser alone.
func (s *scope) assignsTo(v *types.Var, assigned *bool) func(ast.Node) bool {
	root := func(e ast.Expr) bool {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.Ident:
				return s.env.Info.Uses[x] == v
			case *ast.SelectorExpr:
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.StarExpr:
				e = x.X
			default:
				return false
			}
		}
	}
	return func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if root(l) {
					*assigned = true
				}
			}
		case *ast.IncDecStmt:
			if root(n.X) {
				*assigned = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && root(n.X) {
				*assigned = true
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				if _, isMethod := s.env.Info.Selections[sel]; isMethod && root(sel.X) && configures(sel.Sel.Name) {
					*assigned = true
				}
			}
		}
		return !*assigned
	}
}

// configures reports whether a method of this name, by the conventions of
// the libraries, changes the configuration of its receiver.
func configures(name string) bool {
	for _, p := range []string{"Set", "Add", "With", "Enable", "Disable", "Reset"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func stripAddr(e ast.Expr) ast.Expr {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		return ast.Unparen(u.X)
	}
	return e
}

// vars returns the variable e names and all variables it was copied from.
func (s *scope) vars(e ast.Expr) []*types.Var {
	var out []*types.Var
	for range 8 {
		v := s.localVar(stripAddr(e))
		if v == nil {
			return out
		}
		out = append(out, v)
		next, ok := s.init[v]
		if !ok || s.unsure[v] {
			return out
		}
		e = next
	}
	return out
}

// constValue returns the constant value of e, if e is a constant
// expression (directly, or through a variable assigned once).
func (s *scope) constValue(e ast.Expr) constant.Value {
	if tv, ok := s.env.Info.Types[e]; ok && tv.Value != nil {
		return tv.Value
	}
	if r, ok := s.resolve(e); ok && r != e {
		if tv, ok := s.env.Info.Types[r]; ok && tv.Value != nil {
			return tv.Value
		}
	}
	return nil
}

// isZero reports whether e is the constant 0.
func (s *scope) isZero(e ast.Expr) bool {
	v := s.constValue(e)
	return v != nil && constant.Sign(v) == 0
}

// intConst returns e as a constant int64.
func (s *scope) intConst(e ast.Expr) (int64, bool) {
	v := s.constValue(e)
	if v == nil {
		return 0, false
	}
	v = constant.ToInt(v)
	if v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// floatConst returns e as a constant float64.
func (s *scope) floatConst(e ast.Expr) (float64, bool) {
	v := s.constValue(e)
	if v == nil {
		return 0, false
	}
	v = constant.ToFloat(v)
	if v.Kind() != constant.Float {
		return 0, false
	}
	f, _ := constant.Float64Val(v)
	return f, true
}

// stringConst returns e as a constant string.
func (s *scope) stringConst(e ast.Expr) (string, bool) {
	v := s.constValue(e)
	if v == nil || v.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(v), true
}

// ctxKind classifies a context expression.
type ctxKind int

const (
	ctxUnknown    ctxKind = iota
	ctxBackground         // context.Background()/TODO() made in this function
	ctxOther              // a context from elsewhere (a parameter, a derived context)
)

// context classifies the context e, following variables.
func (s *scope) context(e ast.Expr) (ctxKind, *ast.CallExpr) {
	k := follow.Key{What: "context", At: e}
	if !s.env.path.Enter(k) {
		// ctx, cancel := context.WithCancel(ctx): the ctx inside is the
		// value before the assignment, the parameter's when ctx is one.
		if v := s.localVar(e); v != nil && s.isParam(v) {
			return ctxOther, nil
		}
		return ctxUnknown, nil
	}
	defer s.env.path.Leave(k)
	r, ok := s.resolve(e)
	if !ok {
		if v := s.localVar(r); v != nil && s.isParam(v) {
			return ctxOther, nil
		}
		return ctxUnknown, nil
	}
	if call, ok := r.(*ast.CallExpr); ok {
		fn := s.callee(call)
		switch {
		case astq.IsFunc(fn, "context.Background") || astq.IsFunc(fn, "context.TODO"):
			return ctxBackground, call
		case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "context" && len(call.Args) > 0 &&
			oneOf(fn.Name(), []string{"WithCancel", "WithCancelCause", "WithValue", "WithoutCancel"}):
			// Derived contexts keep the deadline of their parent (none for
			// WithoutCancel, which drops it).
			if fn.Name() == "WithoutCancel" {
				return ctxBackground, nil
			}
			return s.context(call.Args[0])
		case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "context":
			return ctxOther, nil // WithTimeout, WithDeadline...
		}
		return ctxUnknown, nil
	}
	if v := s.localVar(r); v != nil && s.isParam(v) {
		return ctxOther, nil
	}
	return ctxUnknown, nil
}

// isParam reports whether v is a parameter of the function.
func (s *scope) isParam(v *types.Var) bool {
	if s.ftype == nil || s.ftype.Params == nil {
		return false
	}
	for _, f := range s.ftype.Params.List {
		for _, id := range f.Names {
			if s.env.Info.Defs[id] == v {
				return true
			}
		}
	}
	return false
}

// ctxParam returns the name of the single context.Context parameter of the
// function, or "".
func (s *scope) ctxParam() string {
	if s.ftype == nil {
		return ""
	}
	// The innermost function with a context parameter, the site's own or
	// one it is nested in (a closure over the caller's ctx), as long as
	// the name still means that parameter where the site's function is.
	path, _ := astutil.PathEnclosingInterval(s.file, s.ftype.Pos(), s.ftype.Pos())
	for _, n := range path {
		var ft *ast.FuncType
		switch n := n.(type) {
		case *ast.FuncDecl:
			ft = n.Type
		case *ast.FuncLit:
			ft = n.Type
		}
		if ft == nil || ft.Params == nil {
			continue
		}
		var name string
		var param *types.Var
		for _, f := range ft.Params.List {
			for _, id := range f.Names {
				v, _ := s.env.Info.Defs[id].(*types.Var)
				if v != nil && isContext(v.Type()) && id.Name != "_" {
					if param != nil {
						return "" // two contexts: which one is the caller's to choose
					}
					name, param = id.Name, v
				}
			}
		}
		if param == nil {
			continue
		}
		if inner := s.env.Pkg.Scope().Innermost(s.body.Rbrace); inner != nil {
			if _, obj := inner.LookupParent(name, s.body.Rbrace); obj != param {
				return ""
			}
		}
		return name
	}
	return ""
}

// isContext reports whether t is context.Context or implements it by
// embedding it (a struct, or a pointer to one, whose Done is the
// context's: goreleaser's *context.Context, caddy.Context).
func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context" {
		return true
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Done")
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "context" {
		return false
	}
	// The Done found is the context package's: of the interface (its
	// receiver is context.Context), or of one of its own implementations,
	// whose receiver type is t again when the package analysed is context.
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	rn, ok := types.Unalias(recv.Type()).(*types.Named)
	return ok && rn.Obj().Pkg() != nil && rn.Obj().Pkg().Path() == "context" && rn.Obj().Name() == "Context"
}

// budgeted reports whether any call inside the nodes consults a budget, as
// judged by Env.IsBudget.
func (s *scope) budgeted(nodes ...ast.Node) bool {
	if s.env.IsBudget == nil {
		return false
	}
	found := false
	seen := make(map[*types.Func]bool)
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		ast.Inspect(n, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || found {
				return !found
			}
			if s.env.IsBudget(call) {
				found = true
				return false
			}
			// Follow functions of the file a few calls deep: a policy
			// helper that checks the budget.
			if fn := s.callee(call); fn != nil && !seen[fn] && depth < 3 {
				seen[fn] = true
				if body := s.declBody(fn); body != nil {
					walk(body, depth+1)
				}
			}
			return true
		})
	}
	for _, n := range nodes {
		if n != nil && !found {
			walk(n, 0)
		}
	}
	return found
}

// remote reports whether the operation reaches the network and its body can
// be inspected for a budget (a function literal or a function declared in
// the file).
func (s *scope) remote(op ast.Expr) (bool, ast.Node) {
	if s.env.Remote == nil || op == nil {
		return false, nil
	}
	r, ok := s.resolve(op)
	if !ok {
		return false, nil
	}
	var body ast.Node
	switch x := r.(type) {
	case *ast.FuncLit:
		body = x.Body
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if sel, ok := x.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else {
			id = x.(*ast.Ident)
		}
		fn, _ := s.obj(id).(*types.Func)
		if fn == nil {
			return false, nil
		}
		body = s.declBody(fn)
	}
	if body == nil {
		return false, nil
	}
	// Hand the caller the function itself, not a variable holding it.
	if _, isLit := r.(*ast.FuncLit); isLit {
		op = r
	}
	if !s.env.Remote(op) {
		return false, nil
	}
	return true, body
}

func (s *scope) declBody(fn *types.Func) ast.Node {
	if fd := s.declOf(fn); fd != nil {
		return fd.Body
	}
	return nil
}

// declOf returns the declaration of fn, a function of this package, or nil.
func (s *scope) declOf(fn *types.Func) *ast.FuncDecl {
	if fn == nil || fn.Pkg() != s.env.Pkg && s.env.Pkg != nil {
		return nil
	}
	for _, f := range s.files() {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && s.env.Info.Defs[fd.Name] == fn {
				return fd
			}
		}
	}
	return nil
}

// fileOf returns the file of the scope's files that holds n, or nil.
func (s *scope) fileOf(n ast.Node) *ast.File {
	for _, f := range s.files() {
		if f.FileStart <= n.Pos() && n.Pos() < f.FileEnd {
			return f
		}
	}
	return nil
}

// files returns the files whose declarations the scope may follow.
func (s *scope) files() []*ast.File {
	if len(s.env.Files) > 0 {
		return s.env.Files
	}
	return []*ast.File{s.file}
}

// qualifier returns the name under which the file imports path, or "".
func (s *scope) qualifier(path string) string {
	return qualifierIn(s.env, s.file, path)
}

func qualifierIn(env *Env, file *ast.File, path string) string {
	for _, imp := range file.Imports {
		if importPath(imp) != path {
			continue
		}
		if imp.Name != nil {
			if imp.Name.Name == "_" || imp.Name.Name == "." {
				return ""
			}
			return imp.Name.Name
		}
		if pn, ok := env.Info.Implicits[imp].(*types.PkgName); ok {
			return pn.Name()
		}
	}
	return ""
}

func importPath(imp *ast.ImportSpec) string {
	p, err := strconv.Unquote(imp.Path.Value)
	if err != nil {
		return ""
	}
	return p
}

// cfg is everything that configures one value: the calls and composite
// literals that built it and what was done to the variables holding it.
type cfg struct {
	calls  []*ast.CallExpr // in source order (by end position)
	lits   []*ast.CompositeLit
	fields []*ast.AssignStmt
	// opaque reports whether part of the value comes from somewhere the
	// scope cannot see (a parameter, a field, another function).
	opaque bool
	// handed: the value was handed to a function that may change it.
	handed bool
}

// collect gathers the configuration of the value e as seen at position at:
// calls on variables made after at are ignored.
func (s *scope) collect(e ast.Expr, at token.Pos) *cfg {
	c := &cfg{}
	seen := make(map[ast.Node]bool)
	var walk func(e ast.Expr, depth int)
	walk = func(e ast.Expr, depth int) {
		if e == nil || depth > 12 {
			return
		}
		for _, v := range s.vars(e) {
			s.gatherVar(c, v, at, seen, func(a ast.Expr) { walk(a, depth+1) })
		}
		r, ok := s.resolve(e)
		if !ok {
			if fromLibrary(s.env.Info.TypeOf(r)) {
				c.opaque = true
			}
			return
		}
		switch r := r.(type) {
		case *ast.CompositeLit:
			if !seen[r] {
				seen[r] = true
				c.lits = append(c.lits, r)
			}
		case *ast.CallExpr:
			if seen[r] {
				return
			}
			seen[r] = true
			c.calls = append(c.calls, r)
			fn := s.callee(r)
			if fn == nil || fn.Pkg() == nil || !isLibraryPath(fn.Pkg().Path()) {
				if fromLibrary(s.env.Info.TypeOf(r)) {
					c.opaque = true // made by a function we do not model
				}
				return
			}
			if sel, ok := ast.Unparen(r.Fun).(*ast.SelectorExpr); ok {
				if _, isMethod := s.env.Info.Selections[sel]; isMethod {
					walk(sel.X, depth+1)
				}
			}
			for _, a := range r.Args {
				walk(a, depth+1)
			}
		case *ast.SelectorExpr, *ast.Ident:
			if fromLibrary(s.env.Info.TypeOf(r)) && !s.isPkgObj(r) {
				c.opaque = true
			}
		}
	}
	walk(e, 0)
	sortByEnd(c.calls)
	return c
}

// gatherVar adds to c what configures the variable v before at: its
// configuring method calls (whose arguments walk follows), its field
// assignments, and whether it was handed away or is configured by
// another function.
func (s *scope) gatherVar(c *cfg, v *types.Var, at token.Pos, seen map[ast.Node]bool, walk func(ast.Expr)) {
	if s.configuredElsewhere(v) {
		c.opaque = true // SetPrepare(h) { client.PrepareRetry = h }
	}
	for _, call := range s.calls[v] {
		// Only calls that configure v: v.Do(req) says nothing
		// about v, and its arguments belong to other values.
		name := ast.Unparen(call.Fun).(*ast.SelectorExpr).Sel.Name
		if call.End() <= at && !seen[call] && configures(name) {
			seen[call] = true
			c.calls = append(c.calls, call)
			for _, a := range call.Args {
				walk(a)
			}
		}
	}
	for _, as := range s.fields[v] {
		if as.End() <= at && !seen[as] {
			seen[as] = true
			c.fields = append(c.fields, as)
		}
	}
	for _, h := range s.handed[v] {
		if h.End() <= at {
			c.opaque, c.handed = true, true
		}
	}
}

// configuredElsewhere reports whether v is a package variable holding a
// library value by reference that a function other than the scope's
// configures: a field of it set, a configuring method called on it, or
// it handed to a call. What that function does is not in view.
func (s *scope) configuredElsewhere(v *types.Var) bool {
	if v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !isPointerish(v.Type()) || !fromLibrary(v.Type()) {
		return false
	}
	uses := func(e ast.Expr) bool { return astq.IsVar(s.env.Info, e, v) }
	outside := func(n ast.Node) bool { return n.Pos() < s.fn.Pos() || n.Pos() >= s.fn.End() }
	found := false
	for _, f := range s.files() {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && uses(sel.X) && outside(n) {
						found = true
					}
				}
			case *ast.CallExpr:
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && uses(sel.X) && configures(sel.Sel.Name) && outside(n) {
					found = true
				}
				if slices.ContainsFunc(n.Args, uses) && outside(n) {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// isPkgObj reports whether e names a package-level object (pkg.Name or Name).
func (s *scope) isPkgObj(e ast.Expr) bool {
	var id *ast.Ident
	switch x := e.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		if _, ok := s.env.Info.Selections[x]; ok {
			return false
		}
		id = x.Sel
	}
	o := s.obj(id)
	return o != nil && o.Pkg() != nil && o.Parent() == o.Pkg().Scope()
}

func sortByEnd(calls []*ast.CallExpr) {
	for i := 1; i < len(calls); i++ {
		for j := i; j > 0 && calls[j].End() < calls[j-1].End(); j-- {
			calls[j], calls[j-1] = calls[j-1], calls[j]
		}
	}
}

func isLibraryPath(path string) bool {
	for _, m := range modules {
		if hasPathPrefix(path, m) {
			return true
		}
	}
	return false
}

// fromLibrary reports whether t is (a pointer to) a named type of a known
// library.
func fromLibrary(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	var obj *types.TypeName
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		obj = t.Obj()
	default:
		return false
	}
	return obj.Pkg() != nil && isLibraryPath(obj.Pkg().Path())
}

// find returns the calls of c that call one of the given functions of
// pkgPath (methods or functions), in source order.
func (s *scope) find(c *cfg, pkgPath string, names ...string) []*ast.CallExpr {
	var out []*ast.CallExpr
	for _, call := range c.calls {
		fn := s.callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pkgPath {
			continue
		}
		for _, n := range names {
			if fn.Name() == n {
				out = append(out, call)
			}
		}
	}
	return out
}

// last returns the last element, or nil.
func last(calls []*ast.CallExpr) *ast.CallExpr {
	if len(calls) == 0 {
		return nil
	}
	return calls[len(calls)-1]
}

// litField returns the value of field name in a keyed composite literal,
// and whether the literal is keyed (an unkeyed literal is not understood).
func litField(lit *ast.CompositeLit, name string) (ast.Expr, bool) {
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
			return kv.Value, true
		}
	}
	return nil, true
}

// fieldSet returns the value last assigned to field name by the
// assignments v.name = x, or nil; unsure reports a compound assignment.
func fieldSet(fields []*ast.AssignStmt, name string) (val ast.Expr, unsure bool) {
	for _, as := range fields {
		for i, l := range as.Lhs {
			sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != name {
				continue
			}
			if as.Tok != token.ASSIGN || len(as.Rhs) != len(as.Lhs) {
				return nil, true
			}
			val = as.Rhs[i]
		}
	}
	return val, false
}

// definingStmt returns the variable name and statement of "v := e" or
// "v = e" when e is the only value assigned.
func (s *scope) definingStmt(e ast.Node) (string, ast.Stmt) {
	var name string
	var stmt ast.Stmt
	ast.Inspect(s.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != e {
			return stmt == nil
		}
		if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
			name, stmt = id.Name, as
		}
		return false
	})
	if stmt == nil || s.env.Fset == nil {
		return "", nil
	}
	if _, inBlock := s.parentBlock(stmt); !inBlock {
		return "", nil
	}
	return name, stmt
}

// parentBlock reports whether stmt is directly in a block statement list.
func (s *scope) parentBlock(stmt ast.Stmt) (*ast.BlockStmt, bool) {
	var parent *ast.BlockStmt
	ast.Inspect(s.body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BlockStmt); ok {
			for _, st := range b.List {
				if st == stmt {
					parent = b
				}
			}
		}
		return parent == nil
	})
	return parent, parent != nil
}

// indent returns the indentation of the line of n, assuming gofmt's tabs.
func (s *scope) indent(n ast.Node) string {
	col := s.env.Fset.Position(n.Pos()).Column
	return strings.Repeat("\t", max(col-1, 0))
}

// nextLine returns the start of the line after the one where n ends, so
// that a statement inserted there keeps n's trailing comment in place.
func (s *scope) nextLine(n ast.Node) (token.Pos, bool) {
	tf := s.env.Fset.File(n.End())
	if tf == nil {
		return token.NoPos, false
	}
	line := tf.Line(n.End())
	if line >= tf.LineCount() {
		return token.NoPos, false
	}
	return tf.LineStart(line + 1), true
}
