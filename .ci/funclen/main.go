// Command funclen reports Go functions longer than a limit, counting the
// lines from the func keyword to the closing brace. It has no dependencies
// outside the standard library so that CI can `go run` it without the
// module proxy.
//
// Usage:
//
//	funclen [-over N] [-top N] [-ignore REGEXP] DIR...
//
// Each line of output is "LINES PACKAGE FUNCTION FILE:LINE:COL", longest
// first, in the format of gocyclo so that the CI script can treat both
// reports alike. With -over it prints only the functions over N lines and
// exits 1 if there is one; with -top it prints at most N of them. -avg
// prints the average length last.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

type funcLen struct {
	lines int
	pkg   string
	name  string
	pos   token.Position
}

func main() {
	over := flag.Int("over", 0, "show only functions longer than `N` lines and exit 1 if there is one")
	top := flag.Int("top", -1, "show at most `N` functions")
	avg := flag.Bool("avg", false, "print the average length")
	ignore := flag.String("ignore", "", "skip files whose path matches `REGEXP`")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: funclen [-over N] [-top N] [-avg] [-ignore REGEXP] DIR...")
		os.Exit(2)
	}
	var skip *regexp.Regexp
	if *ignore != "" {
		skip = regexp.MustCompile(*ignore)
	}
	var all []funcLen
	for _, dir := range flag.Args() {
		fl, err := walk(dir, skip)
		if err != nil {
			fmt.Fprintln(os.Stderr, "funclen:", err)
			os.Exit(2)
		}
		all = append(all, fl...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].lines > all[j].lines })
	shown := 0
	for _, f := range all {
		if f.lines <= *over || (*top >= 0 && shown == *top) {
			break
		}
		fmt.Printf("%d %s %s %s\n", f.lines, f.pkg, f.name, f.pos)
		shown++
	}
	if *avg {
		total := 0
		for _, f := range all {
			total += f.lines
		}
		mean := 0.0
		if len(all) > 0 {
			mean = float64(total) / float64(len(all))
		}
		fmt.Printf("Average: %.1f lines over %d functions\n", mean, len(all))
	}
	if *over > 0 && shown > 0 {
		os.Exit(1)
	}
}

// walk measures every function declared in the .go files below dir.
func walk(dir string, skip *regexp.Regexp) ([]funcLen, error) {
	var out []funcLen
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || (skip != nil && skip.MatchString(path)) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start := fset.Position(fd.Pos())
			end := fset.Position(fd.End())
			out = append(out, funcLen{
				lines: end.Line - start.Line + 1,
				pkg:   f.Name.Name,
				name:  funcName(fd),
				pos:   start,
			})
		}
		return nil
	})
	return out, err
}

// funcName spells a function as gocyclo does: "(*T).m", "(T).m" or "f".
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	return "(" + recvString(fd.Recv.List[0].Type) + ")." + fd.Name.Name
}

func recvString(x ast.Expr) string {
	switch t := x.(type) {
	case *ast.StarExpr:
		return "*" + recvString(t.X)
	case *ast.IndexExpr:
		return recvString(t.X)
	case *ast.IndexListExpr:
		return recvString(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "BADRECV"
}
