package sites

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// buildSSA builds the SSA form of the package's functions that can hold a
// retry site or take part in one, and returns them (with their literals)
// in source order. Every other function is built without its body, as
// an external function: a body with no loop, label, literal, wait,
// function value or self call can hold no cycle, hand no operation on
// and pace nothing, and building it is most of the cost (buildssa builds
// every function of every package the model runs on).
//
// A package without syntax or type information (a dependency loaded from
// export data by a driver that computes no facts on it) has no functions.
func buildSSA(pass *analysis.Pass) []*ssa.Function {
	if pass.TypesInfo == nil || len(pass.Files) == 0 {
		return nil
	}
	prog := ssa.NewProgram(pass.Fset, ssa.BuilderMode(0))
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	files := make([]*ast.File, len(pass.Files))
	var decls []*ast.FuncDecl
	for i, f := range pass.Files {
		c := *f
		c.Decls = make([]ast.Decl, len(f.Decls))
		for j, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				d = withoutValues(gd)
			}
			fd, ok := d.(*ast.FuncDecl)
			if ok && fd.Body != nil && !candidate(pass.TypesInfo, fd) {
				stripped := *fd
				stripped.Body = nil
				fd = &stripped
				d = fd
			}
			if ok {
				decls = append(decls, fd)
			}
			c.Decls[j] = d
		}
		files[i] = &c
	}
	pkg := prog.CreatePackage(pass.Pkg, files, pass.TypesInfo, false)
	pkg.Build()
	var out []*ssa.Function
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		out = append(out, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, fd := range decls {
		obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok || fd.Body == nil {
			continue
		}
		if f := prog.FuncValue(obj); f != nil {
			add(f)
		}
	}
	return out
}

// withoutValues returns a copy of a var declaration whose variables have
// no initial values: the package's initializer, which would compute them,
// holds no retry site (its literals are built with it all the same), and
// building a large table's literal is the bulk of some packages' cost.
func withoutValues(gd *ast.GenDecl) *ast.GenDecl {
	c := *gd
	c.Specs = make([]ast.Spec, len(gd.Specs))
	for i, sp := range gd.Specs {
		if vs, ok := sp.(*ast.ValueSpec); ok && len(vs.Values) > 0 && !hasFuncLit(vs.Values) {
			v := *vs
			v.Values = nil
			sp = &v
		}
		c.Specs[i] = sp
	}
	return &c
}

// hasFuncLit reports whether an expression list holds a function literal.
func hasFuncLit(xs []ast.Expr) bool {
	found := false
	for _, x := range xs {
		ast.Inspect(x, func(n ast.Node) bool {
			_, lit := n.(*ast.FuncLit)
			found = found || lit
			return !found
		})
	}
	return found
}

// candidate reports whether a function can hold a retry site or take part
// in one: its body has a loop, a label, a function literal, a select or
// a receive, calls the time package, calls itself, or hands a function
// value on; or it takes a function value; or it returns a bool and tests
// an error (an attempt that may turn a failure into false, whose callers'
// cycles the model reads through its body).
func candidate(info *types.Info, fd *ast.FuncDecl) bool {
	if hasFuncParam(info, fd.Type) || triesToBool(info, fd) {
		return true
	}
	self := info.Defs[fd.Name]
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt, *ast.FuncLit, *ast.SelectStmt:
			found = true
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW
		case *ast.CallExpr:
			found = callTakesPart(info, n, self)
		}
		return !found
	})
	return found
}

// callTakesPart reports whether a call is one a site can be made of: a
// call of the function itself, of the time package, or one handed a
// function value.
func callTakesPart(info *types.Info, c *ast.CallExpr, self types.Object) bool {
	var id *ast.Ident
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id != nil {
		if obj := info.Uses[id]; obj != nil && (obj == self || obj.Pkg() != nil && obj.Pkg().Path() == "time") {
			return true
		}
	}
	for _, a := range c.Args {
		if t := info.TypeOf(a); t != nil {
			if _, ok := t.Underlying().(*types.Signature); ok {
				return true
			}
		}
	}
	return false
}

// hasFuncParam reports whether a function takes a function value.
func hasFuncParam(info *types.Info, ft *ast.FuncType) bool {
	for _, f := range ft.Params.List {
		if t := info.TypeOf(f.Type); t != nil {
			if _, ok := t.Underlying().(*types.Signature); ok {
				return true
			}
		}
	}
	return false
}

// triesToBool reports whether a function's only result is a bool and its
// body compares an error with nil.
func triesToBool(info *types.Info, fd *ast.FuncDecl) bool {
	res := fd.Type.Results
	if res == nil || res.NumFields() != 1 {
		return false
	}
	if b, ok := info.TypeOf(res.List[0].Type).Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return false
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		be, ok := n.(*ast.BinaryExpr)
		if !ok || be.Op != token.EQL && be.Op != token.NEQ {
			return true
		}
		for _, x := range []ast.Expr{be.X, be.Y} {
			if t := info.TypeOf(x); t != nil && types.Identical(t, types.Universe.Lookup("error").Type()) {
				found = true
			}
		}
		return true
	})
	return found
}
