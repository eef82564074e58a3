package libmodel

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
)

// Attempt counts of a library site (Site.Attempts): a positive number is
// the most attempts one call makes.
const (
	AttemptsUnknown   = 0  // the configuration does not show a count
	AttemptsUnbounded = -1 // nothing counts the attempts
)

// k8sDefaultSteps are the Steps of client-go's util/retry backoffs,
// package variables whose initialisers live in a module we cannot read.
var k8sDefaultSteps = map[string]int{"DefaultRetry": 5, "DefaultBackoff": 4}

// attempts reads the attempt count of a library site from the
// configuration in view. It is evidence for nested retries: a count the
// configuration does not show stays unknown.
func (s *scope) attempts(site *Site, fn *types.Func) int {
	call := site.Call
	switch site.Library {
	case avast:
		return s.avastAttempts(call, 1, avast)
	case avastV5:
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if r, ok := s.resolve(sel.X); ok {
				if nc, ok := r.(*ast.CallExpr); ok {
					return s.avastAttempts(nc, 0, avastV5)
				}
			}
		}
	case retryablehttp:
		return s.retryablehttpAttempts(call, fn)
	case backoffV4, backoffV3, backoffV2:
		for _, mr := range s.find(s.collect(call.Args[1], call.Pos()), site.Library, "WithMaxRetries") {
			if n, ok := s.intConst(mr.Args[len(mr.Args)-1]); ok && n > 0 {
				return int(n) + 1 // n retries after the first attempt
			}
		}
	case "github.com/cenkalti/backoff/v5", "github.com/cenkalti/backoff/v7":
		for _, a := range call.Args[2:] {
			if oc, ok := ast.Unparen(a).(*ast.CallExpr); ok && astq.IsFunc(s.callee(oc), site.Library+".WithMaxTries") && len(oc.Args) == 1 {
				if n, ok := s.intConst(oc.Args[0]); ok && n > 0 {
					return int(n)
				}
			}
		}
	case "k8s.io/client-go":
		if astq.IsFunc(fn, k8sRetry+".OnError") {
			return s.k8sSteps(call.Args[0])
		}
	}
	return AttemptsUnknown
}

// avastAttempts reads retry-go's Attempts option among optCall's
// arguments from index from on; without one the library makes 10.
func (s *scope) avastAttempts(optCall *ast.CallExpr, from int, mod string) int {
	opts, ok := s.options(optCall, from)
	if !ok {
		return AttemptsUnknown
	}
	n := 10
	for _, oc := range opts {
		ofn := s.callee(oc)
		if ofn == nil || ofn.Pkg() == nil || ofn.Pkg().Path() != mod {
			return AttemptsUnknown
		}
		switch {
		case ofn.Name() == "UntilSucceeded":
			n = AttemptsUnbounded
		case ofn.Name() == "Attempts" && len(oc.Args) == 1:
			v, known := s.intConst(oc.Args[0])
			switch {
			case !known:
				n = AttemptsUnknown
			case v == 0:
				n = AttemptsUnbounded
			default:
				n = int(v)
			}
		}
	}
	return n
}

// retryablehttpAttempts: a client makes RetryMax+1 attempts, 5 by default.
func (s *scope) retryablehttpAttempts(call *ast.CallExpr, fn *types.Func) int {
	cl := &rhClient{known: true} // the package default client
	if fn.Type().(*types.Signature).Recv() != nil {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return AttemptsUnknown
		}
		cl = s.rhClient(sel.X, call)
	}
	switch {
	case !cl.known:
		return AttemptsUnknown
	case cl.retryMax == nil:
		return 5
	}
	if n, ok := s.intConst(cl.retryMax); ok && n > 0 && n < 1000 {
		return int(n) + 1
	}
	return AttemptsUnknown
}

// k8sSteps reads the Steps of a wait.Backoff: client-go's defaults by
// identity, or a literal in view.
func (s *scope) k8sSteps(bo ast.Expr) int {
	for name, steps := range k8sDefaultSteps {
		if s.objIs(bo, k8sRetry, name) {
			return steps
		}
	}
	lit, _, _, fields, ok := s.k8sBackoff(bo, bo)
	if !ok || lit == nil || len(fields) > 0 {
		return AttemptsUnknown
	}
	if v, _ := litField(lit, "Steps"); v != nil {
		if n, ok := s.intConst(v); ok && n > 0 {
			return int(n)
		}
	}
	return AttemptsUnknown
}

const awsService = "github.com/aws/aws-sdk-go-v2/service/"

// awsRetryConfig names the aws-sdk-go-v2 objects that change a client's
// retryer from the standard one (3 attempts with a retry token bucket).
var awsRetryConfig = map[string]bool{
	"NopRetryer": true, "WithRetryer": true, "WithRetryMaxAttempts": true, "WithRetryMode": true,
	"AddWithMaxAttempts": true, "RetryMaxAttempts": true, "Retryer": true,
}

// ClientRetries reports whether call is an operation of a client that
// retries on its own: an aws-sdk-go-v2 service client, whose standard
// retryer makes 3 attempts under a retry token bucket (LIBRARIES). When
// the package configures a retryer anywhere the count is not the default
// and ok is false: unknown, not absent.
func ClientRetries(env *Env, call *ast.CallExpr) (attempts int, budgeted bool, what string, ok bool) {
	fn := astq.Callee(env.Info, call)
	if fn == nil || fn.Pkg() == nil || !hasPrefix(fn.Pkg().Path(), awsService) {
		return 0, false, "", false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || recvName(sig.Recv().Type()) != "Client" || !sig.Variadic() {
		return 0, false, "", false
	}
	if env.awsConfigured == nil {
		configured := false
		for _, o := range env.Info.Uses {
			if o.Pkg() != nil && awsRetryConfig[o.Name()] && hasPrefix(o.Pkg().Path(), "github.com/aws/aws-sdk-go-v2/") {
				configured = true
				break
			}
		}
		env.awsConfigured = &configured
	}
	if *env.awsConfigured {
		return 0, false, "", false
	}
	return 3, true, "the aws-sdk-go-v2 client's standard retryer", true
}

func hasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }
