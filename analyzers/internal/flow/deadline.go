package flow

import (
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"golang.org/x/tools/go/ssa"
)

// Deadline is the deadline an attempt runs under, followed by value flow
// from the context (or client) the attempt is handed back to where it is
// made.
type Deadline int

const (
	// DeadlineUnknown: a context or client the model cannot trace (a
	// field, a function value's, a call it does not know).
	DeadlineUnknown Deadline = iota
	// DeadlineNone: context.Background or TODO made in the code, a
	// request built without a context, or no context at all (http.Get,
	// the default client): nothing ever ends the attempt.
	DeadlineNone
	// DeadlineCaller: a context the function received (a parameter):
	// the caller's deadline.
	DeadlineCaller
	// DeadlineSet: a context derived with WithTimeout or WithDeadline, or
	// a client with a Timeout.
	DeadlineSet
)

var deadlineNames = [...]string{"unknown", "none", "caller", "set"}

func (d Deadline) String() string { return deadlineNames[d] }

// WorkDeadline is the deadline under which fn's attempts run: every call
// of fn that takes a context or sends an HTTP request, and, to a small
// depth, every function of fn's package that fn calls and that does. ok is
// false when fn makes no such call. A deadline any call has (its own or
// the caller's) wins; none is only when every such call is known to have
// none.
func WorkDeadline(fn *ssa.Function) (d Deadline, ok bool) {
	return workDeadline(fn, 0)
}

func workDeadline(fn *ssa.Function, depth int) (d Deadline, ok bool) {
	if fn == nil || depth > 2 {
		return DeadlineUnknown, false
	}
	var ds []Deadline
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			call, isCall := in.(*ssa.Call)
			if !isCall {
				continue
			}
			if d, ok := AttemptDeadline(call); ok {
				ds = append(ds, d)
				continue
			}
			callee := call.Call.StaticCallee()
			if callee != nil && callee.Pkg != nil && callee.Pkg == fn.Pkg && callee != fn && len(callee.Blocks) > 0 {
				if d, ok := workDeadline(callee, depth+1); ok {
					if d == DeadlineCaller {
						// the callee's caller is this call: its context argument
						d = DeadlineUnknown
						for _, a := range call.Call.Args {
							if isContext(a.Type()) {
								d = ctxDeadline(a, 0)
							}
						}
					}
					ds = append(ds, d)
				}
			}
		}
	}
	if len(ds) == 0 {
		return DeadlineUnknown, false
	}
	return combine(ds), true
}

// OpDeadline is the deadline an operation runs under: its own (a context
// argument, an HTTP send), or that of the work of the function of this
// package or closure it calls.
func OpDeadline(op *ssa.Call) Deadline {
	if d, ok := AttemptDeadline(op); ok {
		return d
	}
	if fn := calledFunc(op.Call.Value); fn != nil && len(fn.Blocks) > 0 && fn.Pkg == op.Parent().Pkg {
		if d, ok := workDeadline(fn, 1); ok && (d != DeadlineCaller || fn.Parent() != nil) {
			return d
		}
	}
	return DeadlineUnknown
}

// HandedDeadline is the deadline under which an operation handed to a
// retrying function (a closure, a function of this package) runs its
// attempts, when the handed function's body shows it.
func HandedDeadline(op ssa.Value) Deadline {
	if fn := calledFunc(op); fn != nil && len(fn.Blocks) > 0 {
		// A literal's context is its maker's (its own parameters are the
		// helper's to choose, and unknown); a named function's caller is
		// the helper.
		if d, ok := workDeadline(fn, 0); ok && (d != DeadlineCaller || fn.Parent() != nil) {
			return d
		}
	}
	return DeadlineUnknown
}

// calledFunc resolves a function value to its function: a static
// function, a closure made here or captured.
func calledFunc(v ssa.Value) *ssa.Function {
	for range 8 {
		switch x := v.(type) {
		case *ssa.Function:
			return x
		case *ssa.MakeClosure:
			f, _ := x.Fn.(*ssa.Function)
			return f
		case *ssa.FreeVar:
			if v = Binding(x); v == nil {
				return nil
			}
		case *ssa.UnOp:
			if v = loaded(x); v == nil {
				return nil
			}
		case *ssa.ChangeType:
			v = x.X
		default:
			return nil
		}
	}
	return nil
}

// loaded returns the value a load reads from a local variable assigned
// once (its own, or one a closure captures), or nil.
func loaded(x *ssa.UnOp) ssa.Value {
	if x.Op != token.MUL {
		return nil
	}
	addr := x.X
	if fv, ok := addr.(*ssa.FreeVar); ok {
		addr = Binding(fv)
	}
	if a, ok := addr.(*ssa.Alloc); ok {
		return StoredOnce(a)
	}
	return nil
}

// combine joins the deadlines of several attempt calls: the firmest known
// deadline, else none when every one is none, else unknown.
func combine(ds []Deadline) Deadline {
	best, unknown := DeadlineNone, false
	for _, d := range ds {
		switch {
		case d == DeadlineUnknown:
			unknown = true
		case d > best:
			best = d
		}
	}
	if best == DeadlineNone && unknown {
		return DeadlineUnknown
	}
	return best
}

// AttemptDeadline is the deadline call runs under: that of its context
// argument, or, for an HTTP send, of its request's context and its
// client's timeout. ok is false for a call that takes no context and
// sends no request.
func AttemptDeadline(call *ssa.Call) (Deadline, bool) {
	if derivesContext(call) {
		return DeadlineUnknown, false
	}
	for _, a := range call.Call.Args {
		if isContext(a.Type()) {
			return ctxDeadline(a, 0), true
		}
	}
	if call.Call.IsInvoke() && isContext(call.Call.Value.Type()) {
		return DeadlineUnknown, false // a context's own method
	}
	f := call.Call.StaticCallee()
	if f == nil || f.Pkg == nil || f.Pkg.Pkg.Path() != "net/http" {
		return DeadlineUnknown, false
	}
	recv := f.Signature.Recv()
	switch {
	case recv == nil:
		switch f.Name() {
		case "Get", "Head", "Post", "PostForm":
			return DeadlineNone, true // the default client: no timeout, no context
		}
	case isHTTPClient(recv.Type()) && len(call.Call.Args) > 0:
		client := clientTimeout(call.Call.Args[0])
		switch f.Name() {
		case "Get", "Head", "Post", "PostForm":
			return client, true
		case "Do":
			if len(call.Call.Args) < 2 {
				return DeadlineUnknown, true
			}
			req := requestDeadline(call.Call.Args[1], 0)
			switch {
			case client == DeadlineSet || req == DeadlineSet:
				return DeadlineSet, true
			case req == DeadlineCaller:
				return DeadlineCaller, true
			case req == DeadlineNone && client == DeadlineNone:
				return DeadlineNone, true
			}
			return DeadlineUnknown, true
		}
	}
	return DeadlineUnknown, false
}

// derivesContext reports whether call makes a context rather than runs
// under one: a function of package context, or one returning a context.
func derivesContext(call *ssa.Call) bool {
	if f := call.Call.StaticCallee(); f != nil && f.Pkg != nil && f.Pkg.Pkg.Path() == "context" {
		return true
	}
	res := call.Call.Signature().Results()
	for i := range res.Len() {
		if isContext(res.At(i).Type()) {
			return true
		}
	}
	return false
}

// ctxDeadline follows a context value back to where it is made.
func ctxDeadline(v ssa.Value, depth int) Deadline {
	if depth > 12 {
		return DeadlineUnknown
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		if x.Parent().Parent() != nil {
			// a function literal's own parameter: whoever calls the
			// literal (a helper it is handed to) chooses it
			return DeadlineUnknown
		}
		return DeadlineCaller
	case *ssa.MakeInterface:
		return ctxDeadline(x.X, depth+1)
	case *ssa.ChangeInterface:
		return ctxDeadline(x.X, depth+1)
	case *ssa.TypeAssert:
		return ctxDeadline(x.X, depth+1)
	case *ssa.Extract:
		if x.Index == 0 {
			if c, ok := x.Tuple.(*ssa.Call); ok {
				return ctxCall(c, depth)
			}
		}
	case *ssa.Call:
		return ctxCall(x, depth)
	}
	if d, ok := carried(v, depth, ctxDeadline); ok {
		return d
	}
	return DeadlineUnknown
}

// carried follows a value through the variables that carry it: a
// closure's captured variable, a local assigned once, a φ-node (the same
// deadline on every edge, or unknown).
func carried(v ssa.Value, depth int, follow func(ssa.Value, int) Deadline) (Deadline, bool) {
	switch x := v.(type) {
	case *ssa.FreeVar:
		if b := Binding(x); b != nil {
			return follow(b, depth+1), true
		}
	case *ssa.UnOp:
		if s := loaded(x); s != nil {
			return follow(s, depth+1), true
		}
	case *ssa.Phi:
		ds := make([]Deadline, 0, len(x.Edges))
		for _, e := range x.Edges {
			if e != ssa.Value(x) {
				ds = append(ds, follow(e, depth+1))
			}
		}
		return meet(ds), true
	}
	return DeadlineUnknown, false
}

// meet is the deadline a value has whichever way it came: the same on
// every edge, or unknown.
func meet(ds []Deadline) Deadline {
	if len(ds) == 0 {
		return DeadlineUnknown
	}
	for _, d := range ds[1:] {
		if d != ds[0] {
			return DeadlineUnknown
		}
	}
	return ds[0]
}

// ctxCall is the deadline of the context a call returns.
func ctxCall(c *ssa.Call, depth int) Deadline {
	f := c.Call.StaticCallee()
	if f == nil || f.Pkg == nil {
		return DeadlineUnknown
	}
	args := c.Call.Args
	switch f.Pkg.Pkg.Path() {
	case "context":
		switch f.Name() {
		case "Background", "TODO", "WithoutCancel":
			return DeadlineNone
		case "WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause":
			return DeadlineSet
		case "WithCancel", "WithCancelCause", "WithValue":
			if len(args) > 0 {
				return ctxDeadline(args[0], depth+1)
			}
		}
	case "net/http":
		if f.Name() == "Context" && f.Signature.Recv() != nil && len(args) == 1 {
			return requestDeadline(args[0], depth+1)
		}
	}
	return DeadlineUnknown
}

// requestDeadline is the deadline of an *http.Request's context, followed
// back to where the request is made.
func requestDeadline(v ssa.Value, depth int) Deadline {
	if depth > 12 {
		return DeadlineUnknown
	}
	switch x := v.(type) {
	case *ssa.Extract:
		if c, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
			return requestDeadline(c, depth+1)
		}
	case *ssa.Call:
		f := x.Call.StaticCallee()
		if f == nil || f.Pkg == nil || f.Pkg.Pkg.Path() != "net/http" {
			return DeadlineUnknown
		}
		args := x.Call.Args
		switch f.Name() {
		case "NewRequest":
			if f.Signature.Recv() == nil {
				return DeadlineNone
			}
		case "NewRequestWithContext":
			if f.Signature.Recv() == nil && len(args) > 0 {
				return ctxDeadline(args[0], depth+1)
			}
		case "WithContext", "Clone":
			if f.Signature.Recv() != nil && len(args) == 2 {
				return ctxDeadline(args[1], depth+1)
			}
		}
	}
	if d, ok := carried(v, depth, requestDeadline); ok {
		return d
	}
	return DeadlineUnknown
}

// clientTimeout is what a *http.Client value shows of its timeout: the
// default client has none; a client made here has one when its Timeout
// field is set (a composite literal stores it) and none when nothing is
// stored in it; any other client is unknown.
func clientTimeout(v ssa.Value) Deadline {
	switch x := v.(type) {
	case *ssa.UnOp:
		if g, ok := x.X.(*ssa.Global); ok && x.Op == token.MUL && g.Pkg != nil &&
			g.Pkg.Pkg.Path() == "net/http" && g.Name() == "DefaultClient" {
			return DeadlineNone
		}
	case *ssa.FreeVar:
		if b := Binding(x); b != nil {
			return clientTimeout(b)
		}
	case *ssa.Alloc:
		timeout := DeadlineNone
		for _, r := range *x.Referrers() {
			switch r := r.(type) {
			case *ssa.FieldAddr:
				if fieldName(r) == "Timeout" {
					timeout = DeadlineSet
				}
			case *ssa.Store:
				// a whole client copied in, or the client kept elsewhere
				return DeadlineUnknown
			case *ssa.Call:
				if f := r.Call.StaticCallee(); f == nil || f.Signature.Recv() == nil || !isHTTPClient(f.Signature.Recv().Type()) {
					return DeadlineUnknown // handed on: set elsewhere
				}
			case *ssa.MakeInterface:
				return DeadlineUnknown
			}
		}
		return timeout
	}
	return DeadlineUnknown
}

func fieldName(fa *ssa.FieldAddr) string {
	t := fa.X.Type().Underlying()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem().Underlying()
	}
	st, ok := t.(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return ""
	}
	return st.Field(fa.Field).Name()
}

func isHTTPClient(t types.Type) bool { return astq.IsNamed(t, "net/http", "Client") }
