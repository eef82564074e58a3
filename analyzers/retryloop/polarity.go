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
// literal it is built from holds failure codes only (a set of retryable
// codes), No when they hold only 2xx codes, Unknown otherwise.
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
	// Every value the set is given must be a literal the polarity can be
	// read from: a map copied in from elsewhere (built from the user's
	// codes), a v[k] = x or an escaping address make it unknown.
	vals, ok := w.valuesOf(v, w.packageFiles()...)
	res, seen := Unknown, false
	judge := func(e ast.Expr) bool {
		lit, isLit := ast.Unparen(e).(*ast.CompositeLit)
		if !isLit {
			return false
		}
		for _, el := range lit.Elts {
			kv, isKV := el.(*ast.KeyValueExpr)
			if !isKV {
				return false
			}
			k, known := w.intConst(kv.Key)
			if !known || !isTrue(w.info, kv.Value) {
				return false
			}
			t := b2t(k >= 400)
			if k < 400 && (k < 200 || k >= 300) {
				return false
			}
			if !seen {
				res, seen = t, true
			} else if res != t {
				return false
			}
		}
		return true
	}
	for _, e := range vals {
		if e == nil {
			continue // declared empty (nil): lookups say false until set
		}
		if !judge(e) {
			ok = false
			break
		}
	}
	if !ok || !seen {
		res = Unknown
	}
	w.polarity[v] = res
	return res
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
