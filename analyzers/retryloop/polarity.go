package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
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
	if v.Pkg() != w.pass.Pkg {
		return false
	}
	seen[v] = true
	vals, index, ok := w.assignsOf(v, w.packageFiles()...)
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

// predPolarity judges a predicate of one integer parameter whose body is
// a single return: Yes when it holds for 503 and not for 200 (retryable),
// No the other way round (ok), Unknown otherwise.
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
