package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// A status-code classifier (a set of codes, or a predicate of one) says
// "retry" or "ok"; which one is read from what the code shows: the keys
// of the map literals the set is built from, or a predicate's body
// evaluated at 503 and 200. Anything else is unknown, and the test stays
// undecided.

// setPolarity judges a bool-valued map of status codes: Yes when every
// code the code itself puts in the set is a failure code (a set of
// retryable codes), No when every one is a 2xx code, Unknown otherwise
// or when it puts none. The codes are read from the map literals the set
// is given, the constant keys of its element writes, and the same of the
// sets it is copied from (a client's field copied from its options'); an
// empty make(...) and element writes of keys the caller passes in
// (WithRetryOn(codes...)) add codes the author did not write, and leave
// the polarity to the ones written. Anything else it is given (a
// function's result, an escaping address) makes it unknown.
func (w *walker) setPolarity(m ast.Expr) Tri {
	v, ok := w.usedObj(m).(*types.Var)
	if !ok || v.Pkg() != w.pass.Pkg {
		return Unknown
	}
	if w.polarity == nil {
		w.polarity = map[types.Object]Tri{}
	}
	if t, ok := w.polarity[v]; ok {
		return t
	}
	var votes codeVotes
	if !w.setCodes(v, &votes, map[*types.Var]bool{}) || votes.fail == votes.ok || votes.fail > 0 && votes.ok > 0 {
		w.polarity[v] = Unknown
	} else {
		w.polarity[v] = b2t(votes.fail > 0)
	}
	return w.polarity[v]
}

// codeVotes counts the failure (4xx, 5xx) and success (2xx) codes a set
// is given.
type codeVotes struct{ fail, ok int }

func (c *codeVotes) add(code int64) bool {
	switch {
	case code >= 400:
		c.fail++
	case code >= 200 && code < 300:
		c.ok++
	default:
		return false
	}
	return true
}

// setCodes adds the codes the package puts in the set v to votes; false
// when something else may be put in it.
func (w *walker) setCodes(v *types.Var, votes *codeVotes, seen map[*types.Var]bool) bool {
	if seen[v] {
		return true // a copy back and forth adds nothing new
	}
	if v.Pkg() != w.pass.Pkg || !w.follows("setCodes", v) {
		return false
	}
	defer w.unfollows("setCodes", v)
	seen[v] = true
	vals, index, ok := w.pkgAssignsOf(v, true)
	if !ok {
		return false
	}
	for _, a := range index {
		for i, l := range a.Lhs {
			ix, isIndex := ast.Unparen(l).(*ast.IndexExpr)
			if !isIndex || w.usedObj(ix.X) != v {
				continue
			}
			if len(a.Rhs) != len(a.Lhs) || !isTrue(w.info, a.Rhs[i]) {
				return false
			}
			if k, known := w.intConst(ix.Index); known && !votes.add(k) {
				return false
			}
		}
	}
	for _, e := range vals {
		if !w.setValueCodes(e, votes, seen) {
			return false
		}
	}
	return true
}

// setValueCodes adds the codes of one value a set is given.
func (w *walker) setValueCodes(e ast.Expr, votes *codeVotes, seen map[*types.Var]bool) bool {
	switch e := ast.Unparen(e).(type) {
	case nil:
		return true // declared empty (nil): lookups say false until set
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			kv, isKV := el.(*ast.KeyValueExpr)
			if !isKV {
				return false
			}
			k, known := w.intConst(kv.Key)
			if !known || !isTrue(w.info, kv.Value) || !votes.add(k) {
				return false
			}
		}
		return true
	case *ast.CallExpr:
		b, isBuiltin := w.usedObj(e.Fun).(*types.Builtin)
		return isBuiltin && b.Name() == "make"
	case *ast.Ident, *ast.SelectorExpr:
		if tv, known := w.info.Types[e]; known && tv.IsNil() {
			return true
		}
		from, isVar := w.usedObj(e).(*types.Var)
		return isVar && w.setCodes(from, votes, seen)
	}
	return false
}

// predPolarity judges a predicate of one integer (or response: its
// status code) parameter whose body is a single return: Yes when it
// holds for 503 and not for 200 (retryable), No the other way round
// (ok), Unknown otherwise.
func (w *walker) predPolarity(fn *types.Func) Tri {
	decl := w.decls[fn]
	if decl == nil || decl.Body == nil || len(decl.Body.List) != 1 || decl.Type.Params.NumFields() != 1 {
		return Unknown
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 || len(decl.Type.Params.List[0].Names) != 1 {
		return Unknown
	}
	param := w.info.Defs[decl.Type.Params.List[0].Names[0]]
	fail, ok1 := w.evalCode(ret.Results[0], param, 503)
	okv, ok2 := w.evalCode(ret.Results[0], param, 200)
	switch {
	case !ok1 || !ok2 || fail == okv:
		return Unknown
	case fail:
		return Yes
	}
	return No
}

// evalCode evaluates a boolean expression of param at param = code.
func (w *walker) evalCode(e ast.Expr, param types.Object, code int64) (bool, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			v, ok := w.evalCode(e.X, param, code)
			return !v, ok
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			a, ok1 := w.evalCode(e.X, param, code)
			b, ok2 := w.evalCode(e.Y, param, code)
			if e.Op == token.LAND {
				return a && b, ok1 && ok2
			}
			return a || b, ok1 && ok2
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			x, okx := w.intOf(e.X, param, code)
			y, oky := w.intOf(e.Y, param, code)
			if !okx || !oky {
				return false, false
			}
			return cmpInt(x, e.Op, y), true
		}
	}
	return false, false
}

func (w *walker) intOf(e ast.Expr, param types.Object, code int64) (int64, bool) {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && w.info.Uses[id] == param {
		return code, true
	}
	// A response parameter's status code (retryable(resp)).
	if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok && sel.Sel.Name == "StatusCode" && identVar(w.info, sel.X) == param && isResponse(param.Type()) {
		return code, true
	}
	return w.intConst(e)
}

func (w *walker) intConst(e ast.Expr) (int64, bool) {
	tv, ok := w.info.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(tv.Value))
}

func isTrue(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value)
}

// An error classifier (shouldRetry(err), isRetryable(err)) decides a
// retry the way a status set does; what it says of a success is read
// from its body evaluated at a nil error: `if err == nil { return false }`,
// `switch err { case nil: return false }` after cases of sentinel
// errors, `return err != nil && …`, errors.Is(err, …). Anything else is
// unknown, and the test stays undecided.

// stdErrPreds are the standard library's error classifiers, documented
// to report false of a nil error: the file or permission tests of os.
var stdErrPreds = []string{"os.IsNotExist", "os.IsExist", "os.IsPermission", "os.IsTimeout"}

// errPredAtNil evaluates fn, a predicate of one error parameter, at nil:
// No when it returns false (a success is not retried), Yes when true.
func (w *walker) errPredAtNil(fn *types.Func) Tri {
	if astq.IsFunc(fn, stdErrPreds...) {
		return No
	}
	decl := w.decls[fn]
	sig, _ := fn.Type().(*types.Signature)
	if decl == nil || decl.Body == nil || sig == nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 ||
		!isErrorType(sig.Params().At(0).Type()) || !isBool(sig.Results().At(0).Type()) {
		return Unknown
	}
	if w.errPreds == nil {
		w.errPreds = map[*types.Func]Tri{}
	}
	if t, ok := w.errPreds[fn]; ok {
		return t
	}
	w.errPreds[fn] = Unknown // recursion: unknown
	var param types.Object
	if names := decl.Type.Params.List[0].Names; len(names) == 1 {
		param = w.info.Defs[names[0]]
	}
	t := Unknown
	if param != nil {
		t = w.stmtsAtNil(decl.Body.List, param)
	}
	w.errPreds[fn] = t
	return t
}

// stmtsAtNil runs statements with param nil to the first return.
func (w *walker) stmtsAtNil(list []ast.Stmt, param types.Object) Tri {
	for _, st := range list {
		switch st := st.(type) {
		case *ast.ReturnStmt:
			if len(st.Results) != 1 {
				return Unknown
			}
			return w.exprAtNil(st.Results[0], param)
		case *ast.IfStmt:
			if st.Init != nil {
				return Unknown
			}
			switch w.exprAtNil(st.Cond, param) {
			case Yes:
				return w.stmtsAtNil(st.Body.List, param)
			case No:
				if st.Else != nil {
					return w.stmtsAtNil([]ast.Stmt{st.Else}, param)
				}
				continue
			}
			return Unknown
		case *ast.BlockStmt:
			return w.stmtsAtNil(st.List, param)
		case *ast.SwitchStmt:
			body, ok := w.switchAtNil(st, param)
			if !ok {
				return Unknown
			}
			if body != nil {
				return w.stmtsAtNil(body, param)
			}
		default:
			return Unknown
		}
	}
	return Unknown
}

// switchAtNil returns the body a `switch param { … }` runs for nil (nil
// when no clause does), or false when that cannot be told: a case other
// than nil and sentinel errors (package-level error variables) before it.
func (w *walker) switchAtNil(st *ast.SwitchStmt, param types.Object) ([]ast.Stmt, bool) {
	if st.Init != nil || st.Tag == nil || w.usedObj(st.Tag) != param {
		return nil, false
	}
	var dflt []ast.Stmt
	for _, cc := range st.Body.List {
		clause := cc.(*ast.CaseClause)
		if clause.List == nil {
			dflt = clause.Body
			continue
		}
		for _, e := range clause.List {
			if tv, ok := w.info.Types[e]; ok && tv.IsNil() {
				return clause.Body, true
			}
			if v, ok := w.usedObj(e).(*types.Var); !ok || v.IsField() || v.Parent() != v.Pkg().Scope() {
				return nil, false
			}
		}
	}
	return dflt, true
}

// exprAtNil evaluates a boolean expression with param nil.
func (w *walker) exprAtNil(e ast.Expr, param types.Object) Tri {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return not(w.exprAtNil(e.X, param))
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND:
			return and(w.exprAtNil(e.X, param), w.exprAtNil(e.Y, param))
		case token.LOR:
			return or(w.exprAtNil(e.X, param), w.exprAtNil(e.Y, param))
		case token.EQL, token.NEQ:
			x, y := e.X, e.Y
			if w.usedObj(y) == param {
				x, y = y, x
			}
			if tv, ok := w.info.Types[y]; ok && tv.IsNil() && w.usedObj(x) == param {
				return b2t(e.Op == token.EQL)
			}
		}
	case *ast.CallExpr:
		if fn := astq.Callee(w.info, e); astq.IsFunc(fn, "errors.Is", "errors.As") && len(e.Args) > 0 && w.usedObj(e.Args[0]) == param {
			return No
		}
	}
	if tv, ok := w.info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool {
		return b2t(constant.BoolVal(tv.Value))
	}
	return Unknown
}

// retryFlag judges the bool an operation returns beside its error
// (retry, err := c.write(msg)): Yes when the function, in this package,
// returns false with every nil error and true somewhere (a "retry"
// flag: a success never asks for another attempt), Unknown otherwise.
func (w *walker) retryFlag(call *ast.CallExpr) Tri {
	fn := astq.Callee(w.info, call)
	if fn == nil {
		return Unknown
	}
	if t, cached := w.retryFlags[fn]; cached {
		return t
	}
	if w.retryFlags == nil {
		w.retryFlags = map[*types.Func]Tri{}
	}
	w.retryFlags[fn] = w.readRetryFlag(fn)
	return w.retryFlags[fn]
}

func (w *walker) readRetryFlag(fn *types.Func) Tri {
	decl := w.decls[fn]
	sig, _ := fn.Type().(*types.Signature)
	if decl == nil || decl.Body == nil || sig == nil || sig.Results().Len() != 2 ||
		!isBool(sig.Results().At(0).Type()) || !isErrorType(sig.Results().At(1).Type()) {
		return Unknown
	}
	sawTrue, ok := false, true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 2 {
				ok = false
				return false
			}
			flag, known := w.info.Types[n.Results[0]]
			if !known || flag.Value == nil || flag.Value.Kind() != constant.Bool {
				ok = false
				return false
			}
			isTrue := constant.BoolVal(flag.Value)
			sawTrue = sawTrue || isTrue
			if tv, known := w.info.Types[n.Results[1]]; known && tv.IsNil() && isTrue {
				ok = false
			}
		}
		return ok
	})
	if ok && sawTrue {
		return Yes
	}
	return Unknown
}
