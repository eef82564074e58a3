// Package sites is the model v3: it finds the retry sites of a package by
// the SPEC's definition (analyzers/internal/flow, on SSA) and composes
// them across calls through function summaries kept as facts.
//
// A function's summary says which of its function-typed parameters it
// retries: its own cycle runs the parameter again after it failed, or it
// hands the parameter (or a closure that calls it) to a function whose
// summary retries that argument, or to a retry library that does. The
// summaries are computed to a fixed point within the package and read
// across packages as facts, so a thin wrapper around a retry helper is a
// helper too, and its callers' operations are retried through it, with no
// case per wrapper shape.
//
// It runs in the shadow of the v2 model (analyzers/retryloop); nothing
// reports from it yet.
package sites

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/retrylint/retrylint/analyzers/internal/flow"
	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
)

// Fact is the summary of a function that retries some of its parameters:
// Retries holds their indices in the function's signature (the receiver
// not counted), in increasing order.
type Fact struct {
	Retries []int
}

// AFact marks Fact as an analysis fact.
func (*Fact) AFact() {}

func (f *Fact) String() string { return fmt.Sprintf("retries params %v", f.Retries) }

// Result is what the model found in one package.
type Result struct {
	// Loops are the sites of the package's own cycles.
	Loops []*flow.Site
	// Helpers are the calls that hand an operation to a function that
	// retries it (a helper of the code base or a retry library); a call
	// that forwards its own caller's operation is a wrapper, recorded in
	// the summary, not here.
	Helpers []*Helper
	// Summaries are the package's functions that retry some of their
	// parameters (SSA parameter indices, the receiver first), named
	// functions and closures alike.
	Summaries map[*ssa.Function][]int
}

// Helper is a call that hands an operation to a retrying function.
type Helper struct {
	Call *ssa.Call
	// Callee is the retrying function (nil for a library call the
	// library model recognised); Library its import path otherwise.
	Callee  *types.Func
	Library string
	// Op is the operation handed over.
	Op ssa.Value
	// Deadline is the deadline the handed operation's attempts run
	// under, as far as its body shows (a closure, a function of the
	// package).
	Deadline flow.Deadline
}

// Analyzer is the model v3.
var Analyzer = &analysis.Analyzer{
	Name:       "retrysites",
	Doc:        "find retry sites by the SPEC's definition on SSA and compose them through function summaries (model v3; reports nothing)",
	URL:        "https://github.com/retrylint/retrylint/blob/main/docs/README.md",
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(Fact)},
	Run:        run,
}

func run(pass *analysis.Pass) (any, error) {
	funcs := buildSSA(pass)
	m := &model{
		pass:  pass,
		sum:   map[*ssa.Function][]int{},
		lib:   libraryOps(pass),
		loops: map[*ssa.Function][]*flow.Site{},
	}
	for _, fn := range funcs {
		m.loops[fn] = flow.Sites(fn)
	}
	// The summaries grow monotonically (indices are only added): iterate
	// to the fixed point.
	for changed := true; changed; {
		changed = false
		for _, fn := range funcs {
			if m.summarise(fn) {
				changed = true
			}
		}
	}
	res := &Result{Summaries: m.sum}
	for _, fn := range funcs {
		res.Loops = append(res.Loops, m.loops[fn]...)
		res.Helpers = append(res.Helpers, m.helpers(fn)...)
		if obj, ok := fn.Object().(*types.Func); ok && len(m.sum[fn]) > 0 && obj.Pkg() == pass.Pkg {
			pass.ExportObjectFact(obj, &Fact{Retries: sigIndices(fn, m.sum[fn])})
		}
	}
	return res, nil
}

// model holds one pass's state.
type model struct {
	pass  *analysis.Pass
	sum   map[*ssa.Function][]int // SSA parameter indices retried
	lib   map[token.Pos]libOp     // library retry calls by their Lparen
	loops map[*ssa.Function][]*flow.Site
}

// libOp is a library retry call's operation argument.
type libOp struct {
	library string
	arg     int // index among the call's arguments
}

// libraryOps asks the library model for the package's library retry
// calls whose operation is an argument.
func libraryOps(pass *analysis.Pass) map[token.Pos]libOp {
	env := &libmodel.Env{Info: pass.TypesInfo, Pkg: pass.Pkg, Fset: pass.Fset, Files: pass.Files}
	out := map[token.Pos]libOp{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				for _, s := range libmodel.Sites(env, f, n) {
					if i := slices.IndexFunc(s.Call.Args, func(a ast.Expr) bool { return a == s.Op }); i >= 0 {
						out[s.Call.Lparen] = libOp{library: s.Library, arg: i}
					}
				}
			}
			return true
		})
	}
	return out
}

// summarise adds to fn's owner summaries what fn shows, and reports
// whether any grew.
func (m *model) summarise(fn *ssa.Function) bool {
	changed := false
	add := func(owner *ssa.Function, i int) {
		if owner != nil && !slices.Contains(m.sum[owner], i) {
			m.sum[owner] = append(m.sum[owner], i)
			slices.Sort(m.sum[owner])
			changed = true
		}
	}
	for _, s := range m.loops[fn] {
		if !s.Op.Call.IsInvoke() {
			add(m.param(s.Op.Call.Value))
		}
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok {
				continue
			}
			for _, arg := range m.retriedArgs(call) {
				add(m.param(arg))
			}
		}
	}
	return changed
}

// retriedArgs returns the arguments of call that its callee retries.
func (m *model) retriedArgs(call *ssa.Call) []ssa.Value {
	if l, ok := m.lib[call.Pos()]; ok && l.arg < len(call.Call.Args) {
		return []ssa.Value{call.Call.Args[l.arg]}
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		return nil
	}
	var idx []int
	if callee.Pkg != nil && callee.Pkg.Pkg == m.pass.Pkg {
		idx = m.sum[callee]
	} else if obj, ok := callee.Object().(*types.Func); ok {
		var f Fact
		if m.pass.ImportObjectFact(obj, &f) {
			idx = ssaIndices(callee, f.Retries)
		}
	}
	var out []ssa.Value
	for _, i := range idx {
		if i < len(call.Call.Args) {
			out = append(out, call.Call.Args[i])
		}
	}
	return out
}

// helpers returns fn's calls that hand a retrying function an operation
// of fn's own (not a parameter it forwards).
func (m *model) helpers(fn *ssa.Function) []*Helper {
	var out []*Helper
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok {
				continue
			}
			for _, arg := range m.retriedArgs(call) {
				if owner, _ := m.param(arg); owner != nil {
					continue // a wrapper: its callers hand the operation
				}
				h := &Helper{Call: call, Op: arg, Deadline: flow.HandedDeadline(arg)}
				if l, ok := m.lib[call.Pos()]; ok {
					h.Library = l.library
				} else if obj, ok := call.Call.StaticCallee().Object().(*types.Func); ok {
					h.Callee = obj
				}
				out = append(out, h)
			}
		}
	}
	return out
}

// param resolves v to a parameter of a named function or of the
// outermost closure that receives it: through conversions, a closure's
// captured variables, and a closure that does nothing but call it. It
// returns the function and the parameter's SSA index, or nil.
func (m *model) param(v ssa.Value) (*ssa.Function, int) {
	for range 16 {
		switch x := v.(type) {
		case *ssa.Parameter:
			fn := x.Parent()
			return fn, slices.Index(fn.Params, x)
		case *ssa.FreeVar:
			b := flow.Binding(x)
			if b == nil {
				return nil, 0
			}
			v = b
		case *ssa.MakeClosure:
			c := forwardedCall(x.Fn.(*ssa.Function))
			if c == nil {
				return nil, 0
			}
			v = c
		case *ssa.UnOp:
			// a captured variable is read through its address
			if x.Op != token.MUL {
				return nil, 0
			}
			v = x.X
		case *ssa.Alloc:
			if v = flow.StoredOnce(x); v == nil {
				return nil, 0
			}
		case *ssa.ChangeType:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return nil, 0
		}
	}
	return nil, 0
}

// forwardedCall returns the function value a closure calls, when the
// closure wraps one operation: it calls exactly one function value that
// is not a static function (its captured operation), and what it returns
// is that call's outcome (or a constant, or the outcome wrapped): a
// closure that calls a body getter and returns another call's outcome
// wraps an operation of its own.
func forwardedCall(fn *ssa.Function) ssa.Value {
	var out *ssa.Call
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok || call.Call.IsInvoke() || call.Call.StaticCallee() != nil {
				continue
			}
			if out != nil {
				return nil
			}
			out = call
		}
	}
	if out == nil {
		return nil
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if r, ok := in.(*ssa.Return); ok && len(r.Results) > 0 && !onlyFrom(r.Results[len(r.Results)-1], out, 0) {
				return nil
			}
		}
	}
	return out.Call.Value
}

// onlyFrom reports whether v is made only of call's results, constants
// and calls handed them (an error wrapped).
func onlyFrom(v ssa.Value, call *ssa.Call, depth int) bool {
	if depth > 8 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Call:
		if x == call {
			return true
		}
		for _, a := range x.Call.Args {
			if mentions(a, call, depth+1) {
				return true
			}
		}
		return false
	case *ssa.Const:
		return true
	case *ssa.Extract:
		return onlyFrom(x.Tuple, call, depth+1)
	case *ssa.MakeInterface:
		return onlyFrom(x.X, call, depth+1)
	case *ssa.ChangeType:
		return onlyFrom(x.X, call, depth+1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !onlyFrom(e, call, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// mentions reports whether v is made with one of call's results (an
// argument list of a wrapping call holds it beside others).
func mentions(v ssa.Value, call *ssa.Call, depth int) bool {
	if sl, ok := v.(*ssa.Slice); ok {
		if a, ok := sl.X.(*ssa.Alloc); ok && a.Referrers() != nil {
			for _, r := range *a.Referrers() {
				ia, ok := r.(*ssa.IndexAddr)
				if !ok || ia.Referrers() == nil {
					continue
				}
				for _, x := range *ia.Referrers() {
					if st, ok := x.(*ssa.Store); ok && onlyFrom(st.Val, call, depth+1) {
						return true
					}
				}
			}
		}
		return false
	}
	return onlyFrom(v, call, depth)
}

// sigIndices converts SSA parameter indices of fn to signature indices
// (the receiver not counted).
func sigIndices(fn *ssa.Function, idx []int) []int { return shift(fn, idx, -1) }

// ssaIndices converts signature indices to the arguments of a static
// call of fn (which carry the receiver first).
func ssaIndices(fn *ssa.Function, idx []int) []int { return shift(fn, idx, +1) }

// shift moves indices by dir for a method's receiver, dropping the
// receiver itself.
func shift(fn *ssa.Function, idx []int, dir int) []int {
	off := 0
	if fn.Signature.Recv() != nil {
		off = dir
	}
	var out []int
	for _, i := range idx {
		if i+off >= 0 {
			out = append(out, i+off)
		}
	}
	return out
}
