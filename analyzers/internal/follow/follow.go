// Package follow bounds the following of values through their definitions.
//
// The analyzers follow a value back to where it was made: a variable to
// its assignments, a field to its writes, a context to its parent, a delay
// to the expression it was computed from, a function to its body. Real
// code defines values by themselves (ctx, cancel := context.WithCancel(ctx)
// when ctx is the parameter; d = d * 2; a = b; b = a; a closure that calls
// the variable it is stored in), and a resolver that follows such a value
// naively recurses until the goroutine's stack is exhausted — a fatal
// error no recover can catch, which takes down the whole go vet or
// golangci-lint run. Every resolver that follows a definition enters it on
// one [Path] first; the path refuses a definition already being followed
// and a chain deeper than [Limit], and the resolver then answers
// "unknown", which is what the SPEC asks of a value it cannot decide.
package follow

// Limit is the longest chain of definitions followed at once. Real values
// are a few steps from where they are made; a chain this long is a cycle
// through distinct nodes (a recursion the visited set cannot see) or
// generated code, and unknown is the answer for both.
const Limit = 48

// Path is the chain of definitions being followed now, across every
// resolver that shares it. The zero Path is ready to use. A Path is not
// safe for concurrent use: each analysis pass holds its own.
type Path struct {
	on    map[Key]bool
	depth int
	// Refused counts the definitions refused, for tests.
	Refused int
}

// Key names one definition being followed by one resolver: What is the
// resolver (so that two resolvers may follow the same node in turn), At
// the node, object or type followed.
type Key struct {
	What string
	At   any
}

// Enter reports whether the definition k may be followed: false when k is
// already on the path (the value is defined by itself) or the path is
// Limit long. Each Enter that returns true is matched by one Leave(k),
// usually deferred.
func (p *Path) Enter(k Key) bool {
	if p.on[k] || p.depth >= Limit {
		p.Refused++
		return false
	}
	if p.on == nil {
		p.on = make(map[Key]bool)
	}
	p.on[k] = true
	p.depth++
	return true
}

// Leave takes k off the path.
func (p *Path) Leave(k Key) {
	if !p.on[k] {
		panic("internal error: follow: Leave without Enter")
	}
	delete(p.on, k)
	p.depth--
}

// Depth is the number of definitions on the path.
func (p *Path) Depth() int { return p.depth }
