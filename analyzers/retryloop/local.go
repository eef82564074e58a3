package retryloop

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// Local work (SPEC, "Retries of local work"): a retried operation known
// to be local (an in-memory lookup, a compare-and-swap, a local file or
// lock) gives retrybudget, retrysleep, retryjitter and retrynested
// nothing to say. Known local is decided by what a call is, never by
// its name:
//
//   - a function of the standard library, but for the packages that talk
//     to other processes or pass data through a value they are handed
//     (net and below, os/exec, database/sql, io, bufio, syscall, ...) and
//     for a function taking a non-empty interface other than error or
//     context.Context (what that value does is unknown);
//   - a function of this package, or a function literal, whose every call
//     is known local and that sends and receives on no channel;
//   - conversions and builtins.
//
// Anything else is unknown: an interface method, a function value, a
// function of another module (its body is not in view here).

// maxLocalDepth bounds how deep the calls of this package are followed.
const maxLocalDepth = 8

// localOps reports whether every retried operation of the site is known
// to be local work.
func (w *walker) localOps(site *Site) bool {
	if site.Remote != nil || site.RemoteWhy != "" || len(site.Ops) == 0 {
		return false
	}
	seen := map[ast.Node]bool{}
	for _, op := range site.Ops {
		if !w.localCall(op, seen, 0) {
			return false
		}
	}
	return true
}

// localCall reports whether call is known to do local work only. At
// depth 0 the call is in the function being examined, whose local
// closures can be followed.
func (w *walker) localCall(call *ast.CallExpr, seen map[ast.Node]bool, depth int) bool {
	if depth > maxLocalDepth || w.isRemoteCall(call) {
		return false
	}
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		return w.localBody(lit.Body, seen, depth+1)
	}
	if tv, ok := w.info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return true
	}
	fn := astq.Callee(w.info, call)
	if fn == nil {
		if depth == 0 {
			if lit := w.localFunc(call.Fun); lit != nil {
				return w.localBody(lit.Body, seen, depth+1)
			}
		}
		return false
	}
	fn = fn.Origin()
	switch {
	case fn.Pkg() == nil:
		t := recvType(fn)
		return t != nil && isErrorType(t) // err.Error()
	case isInterfaceMethod(fn):
		return false
	case fn.Pkg() == w.pass.Pkg:
		d := w.decls[fn]
		if d == nil || d.Body == nil {
			return false
		}
		if seen[d] {
			return true // a cycle: judged by its other calls
		}
		seen[d] = true
		return w.localBody(d.Body, seen, depth+1)
	}
	return stdLocal(fn)
}

// localBody reports whether every call in body is known local and body
// passes nothing through a channel.
func (w *walker) localBody(body *ast.BlockStmt, seen map[ast.Node]bool, depth int) bool {
	local := true
	ast.Inspect(body, func(n ast.Node) bool {
		if !local {
			return false
		}
		switch n := n.(type) {
		case *ast.SendStmt, *ast.SelectStmt, *ast.GoStmt:
			local = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				local = false
			}
		case *ast.CallExpr:
			if !w.localCall(n, seen, depth) {
				local = false
			}
		}
		return local
	})
	return local
}

func recvType(fn *types.Func) types.Type {
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		return sig.Recv().Type()
	}
	return nil
}

// unknownStd are the standard packages (and those below them) whose
// functions may reach another process or do what a value handed to them
// does.
var unknownStd = []string{
	"net", "os/exec", "database/sql", "syscall", "plugin", "io", "bufio",
	"crypto/tls", "log/syslog", "internal", "runtime/cgo", "os/signal",
}

// stdLocal reports whether fn is a function of the standard library known
// to do local work.
func stdLocal(fn *types.Func) bool {
	path := fn.Pkg().Path()
	if !isStd(path) {
		return false
	}
	for _, p := range unknownStd {
		if path == p || strings.HasPrefix(path, p+"/") {
			return false
		}
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return false
	}
	for i := range sig.Params().Len() {
		if handsBehaviour(sig.Params().At(i).Type()) {
			return false
		}
	}
	return true
}

// handsBehaviour reports whether a parameter of type t hands the callee
// code to run: a non-empty interface other than error and
// context.Context, or a function.
func handsBehaviour(t types.Type) bool {
	if s, ok := t.(*types.Slice); ok {
		t = s.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Interface:
		if u.NumMethods() == 0 || isErrorType(t) || isContextType(t) {
			return false
		}
		return true
	}
	return false
}

// stdPkgs caches isStd by import path.
var stdPkgs sync.Map

// isStd reports whether path is a package of the standard library: a
// directory of GOROOT/src, found once per path.
func isStd(path string) bool {
	if v, ok := stdPkgs.Load(path); ok {
		return v.(bool)
	}
	// isStdPath's test, confirmed in GOROOT: a GOPATH package of the
	// analyzers' testdata has no dot either.
	std := isStdPath(path) && build.Default.GOROOT != ""
	if std {
		st, err := os.Stat(filepath.Join(build.Default.GOROOT, "src", filepath.FromSlash(path)))
		std = err == nil && st.IsDir()
	}
	stdPkgs.Store(path, std)
	return std
}

// localBesideOps reports whether every call of the site's loop other than
// its retried operations (and the calls inside them) is known local: no
// call there could hide a wait (wait() of a function value), so a loop
// with no wait the model sees is known not to wait.
func (w *walker) localBesideOps(site *Site, node ast.Node) bool {
	local := true
	seen := map[ast.Node]bool{}
	ast.Inspect(node, func(n ast.Node) bool {
		if !local {
			return false
		}
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, op := range site.Ops {
			if op == c {
				return false
			}
		}
		if !w.localCall(c, seen, 0) {
			local = false
		}
		return local
	})
	return local
}
