package libmodel

import (
	"encoding/json"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

const grpcPkg = "google.golang.org/grpc"

// ServiceConfigFindings reads gRPC service configs: a constant JSON string
// passed to grpc.WithDefaultServiceConfig, directly or through a constant
// or a variable assigned once in the file.
//
// It finds a retryPolicy without top-level retryThrottling (no retry
// budget), a maxAttempts above the limit grpc-go silently applies (5,
// unless grpc.WithMaxCallAttempts appears in the file), and a config that is
// not valid JSON.
func ServiceConfigFindings(env *Env, file *ast.File) []Finding {
	if env == nil || env.Info == nil {
		return nil
	}
	imports := false
	for _, imp := range file.Imports {
		if importPath(imp) == grpcPkg {
			imports = true
		}
	}
	if !imports {
		return nil
	}
	maxCallAttempts := false
	var calls []*ast.CallExpr
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := (&scope{env: env}).callee(call)
		if astq.IsFunc(fn, grpcPkg+".WithMaxCallAttempts") {
			maxCallAttempts = true
		}
		if astq.IsFunc(fn, grpcPkg+".WithDefaultServiceConfig") && len(call.Args) == 1 {
			calls = append(calls, call)
		}
		return true
	})
	var fds []Finding
	for _, call := range calls {
		fds = append(fds, serviceConfig(env, file, call, maxCallAttempts)...)
	}
	return fds
}

// serviceConfig checks one WithDefaultServiceConfig call.
func serviceConfig(env *Env, file *ast.File, call *ast.CallExpr, maxCallAttempts bool) []Finding {
	arg := call.Args[0]
	js, lit, ok := serviceConfigText(env, file, arg)
	if !ok {
		return nil
	}
	at := ast.Node(arg)
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		return []Finding{finding(CatGRPCInvalid, at, "gRPC service config is not valid JSON ("+err.Error()+")")}
	}
	var methods []map[string]json.RawMessage
	if raw, ok := jsonField(doc, "methodConfig"); ok {
		if err := json.Unmarshal(raw, &methods); err != nil {
			return []Finding{finding(CatGRPCInvalid, at, "gRPC service config methodConfig is malformed ("+err.Error()+")")}
		}
	}
	hasRetry, maxAttempts := retryPolicies(methods)
	if !hasRetry {
		return nil
	}
	var fds []Finding
	if thr, ok := jsonField(doc, "retryThrottling"); !ok || string(thr) == "null" {
		fds = append(fds, noThrottling(at, lit))
	}
	if maxAttempts > 5 && !maxCallAttempts {
		fds = append(fds, finding(CatGRPCMaxAttempts, at, "gRPC retryPolicy maxAttempts "+strconv.FormatFloat(maxAttempts, 'f', -1, 64)+" is above 5"))
	}
	return fds
}

// serviceConfigText returns the JSON of a service config argument: a
// constant, or a variable of the file initialised with a constant string
// once; lit is the literal to fix, when there is one. ok is false when
// the text cannot be known.
func serviceConfigText(env *Env, file *ast.File, arg ast.Expr) (js string, lit *ast.BasicLit, ok bool) {
	if tv, ok := env.Info.Types[arg]; ok && tv.Value != nil {
		return constantString(tv), constLiteral(env, file, arg), true
	}
	s := &scope{env: env, file: file}
	id, isID := ast.Unparen(arg).(*ast.Ident)
	if !isID {
		return "", nil, false
	}
	v, isVar := env.Info.Uses[id].(*types.Var)
	if !isVar {
		return "", nil, false
	}
	init := s.pkgVarInit(v)
	if init == nil {
		return "", nil, false
	}
	itv, ok := env.Info.Types[init]
	if !ok || itv.Value == nil {
		return "", nil, false
	}
	lit, _ = ast.Unparen(init).(*ast.BasicLit)
	return constantString(itv), lit, true
}

// jsonField returns a field of a JSON object by name; encoding/json
// matches field names case-insensitively, as grpc-go does.
func jsonField(m map[string]json.RawMessage, name string) (json.RawMessage, bool) {
	for k, v := range m {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}

// retryPolicies reports whether a method config has a retry policy, and
// the largest maxAttempts among them.
func retryPolicies(methods []map[string]json.RawMessage) (hasRetry bool, maxAttempts float64) {
	for _, m := range methods {
		raw, ok := jsonField(m, "retryPolicy")
		if !ok || string(raw) == "null" {
			continue
		}
		hasRetry = true
		var rp map[string]json.RawMessage
		if json.Unmarshal(raw, &rp) != nil {
			continue
		}
		if ma, ok := jsonField(rp, "maxAttempts"); ok {
			var n float64
			if json.Unmarshal(ma, &n) == nil && n > maxAttempts {
				maxAttempts = n
			}
		}
	}
	return hasRetry, maxAttempts
}

// noThrottling is the finding of a retry policy without retryThrottling;
// the fix adds the recommended throttling to the literal.
func noThrottling(at ast.Node, lit *ast.BasicLit) Finding {
	i := finding(CatGRPCThrottling, at, "gRPC service config has a retryPolicy but no retryThrottling")
	if lit != nil {
		if edit, ok := addThrottling(lit); ok {
			i = i.fix(`Add "retryThrottling": {"maxTokens": 1000, "tokenRatio": 0.1}`, edit)
		}
	}
	return i
}

func constantString(tv types.TypeAndValue) string {
	s, err := strconv.Unquote(tv.Value.ExactString())
	if err != nil {
		return tv.Value.String()
	}
	return s
}

// constLiteral returns the single string literal that spells the constant
// arg: arg itself, or the value of a constant declared in the file.
func constLiteral(env *Env, file *ast.File, arg ast.Expr) *ast.BasicLit {
	switch x := ast.Unparen(arg).(type) {
	case *ast.BasicLit:
		return x
	case *ast.Ident:
		c, ok := env.Info.Uses[x].(*types.Const)
		if !ok {
			return nil
		}
		var lit *ast.BasicLit
		ast.Inspect(file, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, id := range vs.Names {
				if env.Info.Defs[id] == c && len(vs.Values) == len(vs.Names) {
					lit, _ = ast.Unparen(vs.Values[i]).(*ast.BasicLit)
				}
			}
			return false
		})
		return lit
	}
	return nil
}

const throttling = `"retryThrottling": {"maxTokens": 1000, "tokenRatio": 0.1}, `

// addThrottling returns an edit inserting retryThrottling as the first
// member of the top-level JSON object in lit, when the literal can be
// rewritten exactly and stays valid JSON and valid Go.
func addThrottling(lit *ast.BasicLit) (analysis.TextEdit, bool) {
	src := lit.Value
	if lit.Kind != token.STRING || len(src) < 2 {
		return analysis.TextEdit{}, false
	}
	raw := src[0] == '`'
	if raw && strings.ContainsRune(src, '\r') {
		return analysis.TextEdit{}, false
	}
	// The source before the object's '{' may hold only whitespace (or, in an
	// interpreted literal, the escapes \n \t \r), so that the first '{' of
	// the source is the first '{' of the value.
	i := 1
	for i < len(src)-1 {
		c := src[i]
		if c == '{' {
			break
		}
		if !raw && c == '\\' && i+1 < len(src)-1 && strings.IndexByte("ntr", src[i+1]) >= 0 {
			i += 2
			continue
		}
		if c > unicode.MaxASCII || !unicode.IsSpace(rune(c)) {
			return analysis.TextEdit{}, false
		}
		i++
	}
	if i >= len(src)-1 {
		return analysis.TextEdit{}, false
	}
	text := throttling
	if next := src[i+1]; next == ' ' || next == '\n' || next == '\t' || next == '\\' {
		text = strings.TrimSuffix(text, " ")
	}
	if !raw {
		text = strings.ReplaceAll(text, `"`, `\"`)
	}
	newSrc := src[:i+1] + text + src[i+1:]
	val, err := strconv.Unquote(newSrc)
	if err != nil || !json.Valid([]byte(val)) {
		return analysis.TextEdit{}, false
	}
	pos := lit.Pos() + token.Pos(i+1)
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text)}, true
}
