package retryloop

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// remoteFuncs are standard-library calls that reach the network.
var remoteFuncs = map[string]bool{
	"net/http.Get": true, "net/http.Head": true, "net/http.Post": true, "net/http.PostForm": true,
	"net/http.Client.Do": true, "net/http.Client.Get": true, "net/http.Client.Head": true,
	"net/http.Client.Post": true, "net/http.Client.PostForm": true,
	"net/http.Transport.RoundTrip": true, "net/http.RoundTripper.RoundTrip": true,
	"net.Dial": true, "net.DialTimeout": true, "net.DialTCP": true, "net.DialUDP": true, "net.DialUnix": true,
	"net.Dialer.Dial": true, "net.Dialer.DialContext": true, "net.LookupHost": true, "net.LookupIP": true,
	"net.Resolver.LookupHost": true, "net.Resolver.LookupIPAddr": true,
	"crypto/tls.Dial": true, "crypto/tls.DialWithDialer": true, "crypto/tls.Dialer.DialContext": true,
	"net/smtp.Dial": true, "net/smtp.SendMail": true, "net/rpc.Dial": true, "net/rpc.DialHTTP": true,
	"net/rpc.Client.Call": true,
	"net.Conn.Write":      true, "net.Conn.Read": true, "net.TCPConn.Write": true, "net.TCPConn.Read": true,
	"net.UDPConn.Write": true, "net.UDPConn.Read": true, "crypto/tls.Conn.Write": true, "crypto/tls.Conn.Read": true,
	"crypto/tls.Conn.Handshake": true, "crypto/tls.Conn.HandshakeContext": true,
}

// remotePkgPrefixes are packages whose exported calls (with an error result) reach the network.
var remotePkgPrefixes = []string{
	"database/sql",
	"google.golang.org/grpc",
	"github.com/redis/go-redis", "github.com/go-redis/redis",
	"github.com/segmentio/kafka-go", "github.com/IBM/sarama", "github.com/Shopify/sarama",
	"github.com/nats-io/nats.go", "github.com/rabbitmq/amqp091-go", "github.com/streadway/amqp",
	"github.com/jackc/pgx", "github.com/lib/pq", "go.mongodb.org/mongo-driver",
	"github.com/aws/aws-sdk-go-v2/service/", "cloud.google.com/go/",
	"github.com/hashicorp/go-retryablehttp", "github.com/go-resty/resty",
}

// remoteFuncType reports whether t is a function type whose values
// reach the network whatever they are: gRPC's UnaryInvoker and Streamer,
// the next link of an interceptor chain that ends in the connection.
//
// A value of the round trip's own signature, func(*http.Request)
// (*http.Response, error), is an HTTP send too whatever its name: the next
// link of a middleware chain, a client's Do taken as a method value.
func remoteFuncType(t types.Type) bool {
	if sig, ok := types.Unalias(t).Underlying().(*types.Signature); ok && roundTripSig(sig) {
		return true
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "google.golang.org/grpc" {
		return false
	}
	switch n.Obj().Name() {
	case "UnaryInvoker", "Streamer":
		return true
	}
	return false
}

// httpDoer reports whether fn is a method of an interface that takes an
// *http.Request and returns (*http.Response, error): an HTTP client's Do
// or a RoundTripper, whatever the interface is named. What its
// implementations do with the request is sending it.
func httpDoer(fn *types.Func) bool {
	if !isInterfaceMethod(fn) {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return roundTripSig(types.NewSignatureType(nil, nil, nil, sig.Params(), sig.Results(), sig.Variadic()))
}

// roundTripSig reports whether sig is func(*http.Request) (*http.Response, error).
func roundTripSig(sig *types.Signature) bool {
	if sig.Recv() != nil || sig.Variadic() || sig.Params().Len() != 1 || sig.Results().Len() != 2 {
		return false
	}
	_, reqPtr := sig.Params().At(0).Type().(*types.Pointer)
	_, respPtr := sig.Results().At(0).Type().(*types.Pointer)
	return reqPtr && respPtr && astq.IsNamed(sig.Params().At(0).Type(), "net/http", "Request") &&
		astq.IsNamed(sig.Results().At(0).Type(), "net/http", "Response") &&
		types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type())
}

// sqlRemote lists the database/sql methods that talk to the server.
func sqlRemote(name string) bool {
	switch name {
	case "Query", "QueryContext", "QueryRow", "QueryRowContext", "Exec", "ExecContext",
		"Ping", "PingContext", "Begin", "BeginTx", "Commit", "Prepare", "PrepareContext", "Conn":
		return true
	}
	return false
}

// remoteFuncPkgs are the packages of remoteFuncs: a function of any other
// package is not looked up there (building its path costs).
var remoteFuncPkgs = func() map[string]bool {
	m := map[string]bool{}
	for p := range remoteFuncs {
		// Every prefix ending before a dot of the last path element: a
		// superset of the package paths (yaml.v3.Func has two).
		last := strings.LastIndex(p, "/") + 1
		for i := last; i < len(p); i++ {
			if p[i] == '.' {
				m[p[:i]] = true
			}
		}
	}
	return m
}()

// isRemoteFunc reports whether fn reaches the network by itself.
func (c *walker) isRemoteFunc(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	if remoteFuncPkgs[fn.Pkg().Path()] && remoteFuncs[astq.FuncPath(fn)] {
		return true
	}
	if httpDoer(fn) {
		return true
	}
	path := fn.Pkg().Path()
	if path == c.pass.Pkg.Path() {
		return false
	}
	if !returnsError(fn) {
		return false
	}
	if path == "database/sql" {
		return sqlRemote(fn.Name())
	}
	if c.inRemotePkg(path) {
		return true
	}
	// A gRPC-generated client method: an interface method taking ...grpc.CallOption.
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Variadic() {
		last := sig.Params().At(sig.Params().Len() - 1).Type()
		if s, ok := last.(*types.Slice); ok {
			if n, ok := types.Unalias(s.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil &&
				n.Obj().Pkg().Path() == "google.golang.org/grpc" && n.Obj().Name() == "CallOption" {
				return true
			}
		}
	}
	var fact FuncFact
	if c.pass.ImportObjectFact(fn, &fact) && fact.Remote {
		return true
	}
	return false
}

// reachesRemote reports whether a function literal makes a remote call,
// its nested literals aside.
func (w *walker) reachesRemote(lit *ast.FuncLit) *ast.CallExpr {
	if !w.follows("reachesRemote", lit) {
		return nil
	}
	defer w.unfollows("reachesRemote", lit)
	var found *ast.CallExpr
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok && w.isRemoteCall(c) {
			found = c
		}
		return found == nil
	})
	return found
}

// isRemoteCall reports whether a call reaches the network.
func (w *walker) isRemoteCall(call *ast.CallExpr) bool {
	fn := astq.Callee(w.info, call)
	if fn == nil {
		if remoteFuncType(w.info.TypeOf(call.Fun)) {
			return true
		}
		// A local closure: what it calls.
		if lit := w.localFunc(call.Fun); lit != nil {
			return w.reachesRemote(lit) != nil
		}
		return false
	}
	if w.pass.Pkg != fn.Pkg() {
		if r, ok := w.remote[fn]; ok {
			return r
		}
	}
	if w.remote != nil {
		if r, ok := w.remote[fn]; ok {
			return r
		}
	}
	r := w.isRemoteFunc(fn)
	if !r {
		f := w.factOf(fn)
		r = f != nil && f.Remote
	}
	if !r {
		r = w.implsRemote(fn)
	}
	if !r && fn.Pkg() == w.pass.Pkg {
		r = w.ownImplsRemote(fn)
	}
	if w.pass.Pkg != fn.Pkg() && w.remote != nil {
		w.remote[fn] = r
	}
	return r
}

// implsRemote reports whether fn is a method of an interface declared in
// another package whose every implementation there (at least one) is
// remote: godo's DropletActionsService, implemented by the package's own
// service type only. An interface with a local implementation, or none
// visible, is unknown: not remote.
func (w *walker) implsRemote(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || fn.Pkg() == nil || fn.Pkg() == w.pass.Pkg {
		return false
	}
	named, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	if !ok {
		return false
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || !w.mayBeRemote(fn.Pkg()) {
		return false
	}
	if w.remote != nil {
		w.remote[fn] = false // an implementation calling back through the interface
	}
	sc := fn.Pkg().Scope()
	impls := 0
	for _, name := range sc.Names() {
		tn, ok := sc.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		nt, ok := tn.Type().(*types.Named)
		if !ok || nt.TypeParams().Len() > 0 {
			continue
		}
		if _, ok := nt.Underlying().(*types.Interface); ok {
			continue
		}
		var t types.Type = nt
		if !types.Implements(t, iface) {
			t = types.NewPointer(nt)
			if !types.Implements(t, iface) {
				continue
			}
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), fn.Name())
		m, ok := obj.(*types.Func)
		if !ok {
			return false
		}
		impls++
		if !w.isRemoteFunc(m) {
			if f := w.factOf(m); f == nil || !f.Remote {
				return false
			}
		}
	}
	return impls > 0
}

// mayBeRemote reports whether a package of another can hold a remote
// function: one of remoteFuncs or of the remote packages, or one its
// package fact says reaches the network. Scanning a package's types for
// an interface's implementations is done only for those.
func (w *walker) mayBeRemote(pkg *types.Package) bool {
	path := pkg.Path()
	if remoteFuncPkgs[path] || path == "database/sql" {
		return true
	}
	if w.inRemotePkg(path) {
		return true
	}
	var pf PkgFact
	return w.pass.ImportPackageFact(pkg, &pf) && pf.Remote
}

// inRemotePkg reports whether path is one of the remote packages (the
// built-in prefixes and -retrybudget.remote-pkgs): the package itself, a
// package below it, or any path a prefix ending in "/" starts.
func (w *walker) inRemotePkg(path string) bool {
	for _, p := range append(remotePkgPrefixes, w.opts.RemotePkgs...) {
		if p != "" && (path == p || strings.HasPrefix(path, strings.TrimSuffix(p, "/")+"/") || strings.HasPrefix(path, p) && strings.HasSuffix(p, "/")) {
			return true
		}
	}
	return false
}

// ownImplsRemote reports whether fn is a method of an interface this
// package declares whose every implementation here (at least one) is
// remote, by its settled fact (SPEC, "Retries of local work": an
// interface the code base declares is unknown unless every type of its
// own package implementing it is remote). Asked only once the package's
// facts are settled: a function of the package calling through such an
// interface is not remote in its own fact.
func (w *walker) ownImplsRemote(fn *types.Func) bool {
	if !w.factsDone {
		return false
	}
	if r, ok := w.ownIface[fn]; ok {
		return r
	}
	if w.ownIface == nil {
		w.ownIface = map[*types.Func]bool{}
	}
	w.ownIface[fn] = false // an implementation calling back through the interface
	iface := ifaceOf(fn)
	if iface == nil {
		return false
	}
	impls := 0
	sc := fn.Pkg().Scope()
	for _, name := range sc.Names() {
		m, ok := implMethod(sc.Lookup(name), iface, fn)
		if !ok {
			continue
		}
		if m == nil {
			return false
		}
		impls++
		if f := w.factOf(m); f == nil || !f.Remote {
			return false
		}
	}
	w.ownIface[fn] = impls > 0
	return impls > 0
}

// ifaceOf returns the interface fn is a method of, or nil.
func ifaceOf(fn *types.Func) *types.Interface {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil
	}
	named, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	if !ok {
		return nil
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return nil
	}
	return iface
}

// implMethod returns the method fn's name resolves to on obj when obj is
// a non-generic, non-interface named type that (or whose pointer)
// implements iface: ok reports that it implements it; a nil method, that
// the method is not a declared function (a promoted field of function
// type).
func implMethod(obj types.Object, iface *types.Interface, fn *types.Func) (m *types.Func, ok bool) {
	tn, isType := obj.(*types.TypeName)
	if !isType || tn.IsAlias() {
		return nil, false
	}
	nt, isNamed := tn.Type().(*types.Named)
	if !isNamed || nt.TypeParams().Len() > 0 {
		return nil, false
	}
	if _, isIface := nt.Underlying().(*types.Interface); isIface {
		return nil, false
	}
	var t types.Type = nt
	if !types.Implements(t, iface) {
		t = types.NewPointer(nt)
		if !types.Implements(t, iface) {
			return nil, false
		}
	}
	sel, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), fn.Name())
	m, _ = sel.(*types.Func)
	return m, true
}
