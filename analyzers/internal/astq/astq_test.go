package astq

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

const src = `package p

type T struct{}

func (*T) M() {}

type G[X any] struct{}

func (G[X]) Do() {}

type I interface{ Run() }

func F() {}

func use(t *T, g G[int], i I, err error) {
	t.M()
	g.Do()
	i.Run()
	F()
	_ = err == nil
	_ = nil == err
	{
		nil := err
		_ = err == nil
	}
}
`

func check(t *testing.T) (*ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{},
		Types: map[ast.Expr]types.TypeAndValue{}, Instances: map[*ast.Ident]types.Instance{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if _, err := (&types.Config{}).Check("example.com/p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	return f, info
}

func TestCalleesByPath(t *testing.T) {
	f, info := check(t)
	var got []string
	ast.Inspect(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			got = append(got, FuncPath(Callee(info, c)))
		}
		return true
	})
	want := []string{"example.com/p.T.M", "example.com/p.G.Do", "example.com/p.I.Run", "example.com/p.F"}
	if len(got) != len(want) {
		t.Fatalf("callees %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("callee %d: %q, want %q", i, got[i], want[i])
		}
	}
	fn := info.Defs[f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Name].(*types.Func)
	if IsFunc(fn, "example.com/p.F", "example.com/q.use") || !IsFunc(fn, "example.com/p.F", "example.com/p.use") {
		t.Errorf("IsFunc matches by path and name, not by name alone")
	}
	if IsFunc(nil, "example.com/p.F") {
		t.Errorf("IsFunc(nil) is true")
	}
}

// The comparisons in use, in order: err == nil, nil == err, and
// err == nil where nil is a shadowing variable.
func TestNilChecks(t *testing.T) {
	f, info := check(t)
	var cmps []*ast.BinaryExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok {
			cmps = append(cmps, b)
		}
		return true
	})
	if len(cmps) != 3 {
		t.Fatalf("%d comparisons, want 3", len(cmps))
	}
	errVar := info.Uses[cmps[0].X.(*ast.Ident)]
	if !NilCheck(info, cmps[0], errVar) || !NilCheck(info, cmps[1], errVar) {
		t.Errorf("err == nil and nil == err are nil checks")
	}
	if NilCheck(info, cmps[2], errVar) || IsNil(info, cmps[2].Y) {
		t.Errorf("a variable named nil is not the predeclared nil")
	}
	if !IsVar(info, cmps[2].X, errVar) || IsVar(info, cmps[2].Y, errVar) {
		t.Errorf("IsVar: err names err, the shadowing nil does not")
	}
	if !RefersTo(info, cmps[2], errVar) || RefersTo(info, cmps[2].Y, errVar) {
		t.Errorf("RefersTo: the comparison uses err, its right side does not")
	}
}

func TestLoopBody(t *testing.T) {
	for _, tc := range []struct {
		src  string
		body bool
	}{
		{"for {}", true}, {"for i := 0; i < 3; i++ {}", true}, {"for range 3 {}", true},
		{"if true {}", false}, {"switch {}", false},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p; func f() { "+tc.src+" }", 0)
		if err != nil {
			t.Fatal(err)
		}
		st := f.Decls[0].(*ast.FuncDecl).Body.List[0]
		if got := LoopBody(st); (got != nil) != tc.body {
			t.Errorf("LoopBody(%s) = %v, want a body: %t", tc.src, got, tc.body)
		}
	}
}
