package fixes

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestInsertionPointGoto pins that no statement is put before a loop
// where a goto jumps forward over the place: the declaration would come
// into scope at the goto's label, which does not compile. A goto back,
// or one that lands before the place, leaves it usable.
func TestInsertionPointGoto(t *testing.T) {
	const src = `package p

func forward(warm bool, op func() error) {
	if warm {
		goto attempts
	}
	_ = op()
attempts:
	for range 2 {
		_ = op()
	}
}

func back(op func() error) {
	tried := false
again:
	for range 2 {
		_ = op()
	}
	if !tried {
		tried = true
		goto again
	}
}

func before(warm bool, op func() error) {
	if warm {
		goto done
	}
done:
	_ = op()
	for range 2 {
		_ = op()
	}
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	pass := &analysis.Pass{Fset: fset, Files: []*ast.File{f}, Pkg: pkg, TypesInfo: info,
		ReadFile: func(string) ([]byte, error) { return []byte(src), nil }}
	want := map[string]bool{"forward": false, "back": true, "before": true}
	for _, d := range f.Decls {
		fd := d.(*ast.FuncDecl)
		var loop ast.Node
		ast.Inspect(fd, func(n ast.Node) bool {
			if r, ok := n.(*ast.RangeStmt); ok && loop == nil {
				loop = r
			}
			return loop == nil
		})
		if _, ok := InsertionPoint(pass, fd, loop); ok != want[fd.Name.Name] {
			t.Errorf("%s: insertion point usable = %v, want %v", fd.Name.Name, ok, want[fd.Name.Name])
		}
	}
}
