// Package libmodel knows the retry libraries that retrylint understands.
//
// It finds calls into third-party retry libraries (cenkalti/backoff v4 and
// v5, avast/retry-go, sethvargo/go-retry, hashicorp/go-retryablehttp, resty
// v2 and v3, failsafe-go, k8s wait and client-go retry, go-grpc-middleware
// retry (v1 and v2), eapache/go-resiliency retrier, the aws-sdk-go-v2 retryer and gRPC
// service configs) and reads their configuration into findings: what it
// shows of each property a retry is judged on (a wait, jitter, an attempt
// cap, a budget, a deadline, an idempotency key), in the library's own
// words, with the library-specific rewrites behind a Fixer. It names no
// check and words no consequence: the reporters decide which findings
// they speak for and say what they do (retryloop turns the findings into
// the site's evidence).
//
// Every rule is matched by type identity (the package path and name of the
// called function or method), never by spelling, and every rule follows the
// configuration only as far as it can see it: through composite literals,
// option calls, builder chains and variables assigned once in the function
// (or package-level variables initialised in the file). When a part of the
// configuration comes from somewhere the package cannot see, the properties
// that depend on it are unknown and nothing is reported about them.
//
// The safe configuration of every library produces no finding.
package libmodel

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/internal/follow"
)

// Categories of findings, one per sub-kind: each shows one property
// (Finding.Prop).
const (
	CatNoJitter        = "library-no-jitter"
	CatFixedDelay      = "library-fixed-delay"
	CatNoDelay         = "library-no-delay"
	CatUnbounded       = "library-unbounded"
	CatNoBudget        = "library-no-budget"
	CatNoContext       = "library-no-context"
	CatBackground      = "library-background-context"
	CatNoKey           = "library-no-idempotency-key"
	CatGRPCThrottling  = "grpc-no-retry-throttling"
	CatGRPCMaxAttempts = "grpc-max-attempts-capped"
	CatGRPCInvalid     = "grpc-invalid-service-config"
)

// Env lets the caller supply judgements libmodel cannot make alone.
type Env struct {
	Info *types.Info
	Pkg  *types.Package
	// Remote reports whether the function literal / function value expr
	// passed as the retried operation reaches the network (may be nil =>
	// assume unknown/false).
	Remote func(op ast.Expr) bool
	// IsBudget reports whether a call consults a retry budget/limiter/breaker
	// (x/time/rate, gobreaker, bundled package, user-named).
	IsBudget func(call *ast.CallExpr) bool
	// MadeClient, when set, gives the summary of the retryablehttp
	// client a function of another package returns (its fact), or nil.
	MadeClient func(fn *types.Func) *MadeClient
	// KeyHeaders are the canonical idempotency key header names (default
	// Idempotency-Key, X-Idempotency-Key + user-configured).
	KeyHeaders []string
	// Fset, when set, lets fixes that add a statement indent it like its
	// neighbour; without it those fixes are not offered.
	Fset *token.FileSet
	// Files, when set, are all the files of the package: helpers and
	// package-level variables are then followed across files, not only in
	// the file at hand.
	Files []*ast.File

	// path bounds every resolver that follows a definition (follow).
	path follow.Path

	awsConfigured *bool // the package configures an aws retryer (ClientRetries)
	readsMethod   *bool // a function handed a resty response reads a method (readsRequestMethod)
	wraps         *bool // the package imports a library or a wrapper of one (wrapsLibrary)
	// fieldWrites caches the values the package gives unexported fields
	// (fieldUnread: some write cannot be followed).
	fieldWrites map[*types.Var][]fieldWrite
	fieldUnread map[*types.Var]bool
}

// DefaultKeyHeaders are the idempotency key headers net/http itself honours
// (golang/go#19943), used when Env.KeyHeaders is empty.
var DefaultKeyHeaders = []string{"Idempotency-Key", "X-Idempotency-Key"}

// Prop is the property of a retry that a library finding is about. A
// finding shows it absent, or present and wrong (a fixed delay, a
// configuration the library reads otherwise than it is written); which
// check speaks for it, and in what words, is the reporters' decision.
type Prop int

const (
	PropWait     Prop = iota + 1 // a wait between attempts: absent, or a fixed delay
	PropJitter                   // randomness in a growing delay: absent
	PropCap                      // a bound on the attempts (a cap, an elapsed-time limit): absent
	PropBudget                   // a retry budget or token bucket: absent
	PropDeadline                 // a deadline, or the caller's context, over the attempts: absent
	PropKey                      // an idempotency key on a re-sent write: absent
	PropConfig                   // a retry configuration the library rejects or reads otherwise
)

// Finding is what a library call's configuration shows of one property:
// the construct, in the library's own words, and where it stands.
type Finding struct {
	Category string // constant per sub-kind, e.g. "library-no-jitter"
	Pos, End token.Pos
	// Shows names the construct and what it does, lower case, no
	// trailing period: "backoff.ConstantBackOff waits the same delay
	// between attempts". The reporter adds the consequence.
	Shows   string
	Related []analysis.RelatedInformation
	// Fix offers the library-specific rewrites; nil when no rewrite is
	// mechanical and safe.
	Fix Fixer
	// Root is where the finding is fixed when that is not where it
	// stands: the construction of a client configured in another
	// function (a field's), which every send through it shares. nil
	// otherwise.
	Root ast.Node
	// Maker, when Root is nil, is the function of another package that
	// made the client the call sends through: the findings of every send
	// through the clients it makes are one, fixed there.
	Maker *types.Func
}

// Fixer offers a finding's rewrites.
type Fixer interface {
	SuggestedFixes() []analysis.SuggestedFix
}

// Fixes returns the finding's rewrites, if any.
func (f Finding) Fixes() []analysis.SuggestedFix {
	if f.Fix == nil {
		return nil
	}
	return f.Fix.SuggestedFixes()
}

// Prop returns the property the finding shows.
func (f Finding) Prop() Prop {
	switch f.Category {
	case CatFixedDelay, CatNoDelay:
		return PropWait
	case CatNoJitter:
		return PropJitter
	case CatUnbounded:
		return PropCap
	case CatNoBudget, CatGRPCThrottling:
		return PropBudget
	case CatNoContext, CatBackground:
		return PropDeadline
	case CatNoKey:
		return PropKey
	}
	return PropConfig
}

// Site is a library retry site.
type Site struct {
	Call    *ast.CallExpr // the retry call (backoff.Retry, retry.Do, client.Do, failsafe .Get, ...)
	Library string        // module import path, e.g. "github.com/cenkalti/backoff/v4"
	// Findings are what the call's configuration shows, in the order
	// found.
	Findings []Finding
	// Op is the operation the call retries, when it is an argument
	// (backoff.Retry(ctx, op), retry.Do(op)): a helper wrapping the
	// library may retry a function it is given.
	Op ast.Expr
	// Budgetless: the library call holds no budget of its own (the
	// library has none, or none of its budget options is set); the
	// operation may still consult one.
	Budgetless bool
	// Attempts is the most attempts one call makes, as far as the
	// configuration in view shows (AttemptsUnknown, AttemptsUnbounded).
	Attempts int
	// AnyMethod: the call re-sends its request whatever its method (a
	// retryablehttp client known to retry, whose CheckRetry ignores the
	// method): a POST built elsewhere is re-sent too.
	AnyMethod bool
	// Config is the construction of the client the call sends through
	// (retryablehttp's NewClient call or Client literal), when in view;
	// Held that it is configured in another function (a field's client).
	Config ast.Node
	Held   bool
}

// Sites finds library retry sites in one function body (fn is *ast.FuncDecl
// or *ast.FuncLit), following configuration through composite literals,
// option calls, builder chains and local variables in that function.
// Function literals nested in fn are not descended into: they are functions
// of their own and the caller visits them separately.
func Sites(env *Env, file *ast.File, fn ast.Node) []*Site {
	ftype, body := funcParts(fn)
	if body == nil || env == nil || env.Info == nil {
		return nil
	}
	if !importsAny(env, file) {
		return nil
	}
	s := newScope(env, file, fn, ftype, body)
	var sites []*Site
	ast.Inspect(body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok && lit != fn {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if site := s.site(call); site != nil {
			sites = append(sites, site)
		}
		return true
	})
	return sites
}

// site dispatches one call to the library that owns it.
func (s *scope) site(call *ast.CallExpr) *Site {
	fn := s.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	path := fn.Pkg().Path()
	for _, lib := range libraries {
		if hasPathPrefix(path, lib.module) {
			if site := lib.site(s, call, fn); site != nil {
				site.Library = lib.module
				site.Attempts = s.attempts(site, fn)
				return site
			}
			return nil
		}
	}
	return nil
}

type library struct {
	module string
	site   func(s *scope, call *ast.CallExpr, fn *types.Func) *Site
}

var libraries []library

func init() {
	libraries = []library{
		{"github.com/cenkalti/backoff/v4", backoffRetrySite(backoffV4)},
		{"github.com/cenkalti/backoff/v5", backoffV5Site},
		{"github.com/cenkalti/backoff/v7", backoffV5Site},
		{backoffV3, backoffRetrySite(backoffV3)},
		// after the versioned paths, which it is a prefix of
		{backoffV2, backoffRetrySite(backoffV2)},
		{"github.com/avast/retry-go/v4", avastSite},
		{"github.com/avast/retry-go/v5", avastV5Site},
		{"github.com/sethvargo/go-retry", goRetrySite},
		{"github.com/hashicorp/go-retryablehttp", retryablehttpSite},
		{"github.com/go-resty/resty/v2", restyV2Site},
		{"resty.dev/v3", restyV3Site},
		{"github.com/failsafe-go/failsafe-go", failsafeSite},
		{"k8s.io/apimachinery", k8sWaitSite},
		{"k8s.io/client-go", k8sRetrySite},
		{"github.com/grpc-ecosystem/go-grpc-middleware/v2", grpcMiddlewareSite(grpcMiddleware)},
		// after v2, whose path it is a prefix of
		{"github.com/grpc-ecosystem/go-grpc-middleware", grpcMiddlewareSite(grpcMiddlewareV1)},
		{"github.com/eapache/go-resiliency", eapacheSite},
		{"github.com/aws/aws-sdk-go-v2", awsSite},
	}
}

// modules are the module paths of the known libraries.
var modules = []string{
	"github.com/cenkalti/backoff/v4", "github.com/cenkalti/backoff/v5", "github.com/cenkalti/backoff/v7", backoffV3, backoffV2,
	"github.com/avast/retry-go/v4", "github.com/avast/retry-go/v5", "github.com/sethvargo/go-retry",
	"github.com/hashicorp/go-retryablehttp", "github.com/go-resty/resty/v2", "resty.dev/v3",
	"github.com/failsafe-go/failsafe-go", "k8s.io/apimachinery", "k8s.io/client-go",
	"github.com/grpc-ecosystem/go-grpc-middleware/v2", "github.com/grpc-ecosystem/go-grpc-middleware", "github.com/eapache/go-resiliency",
	"github.com/aws/aws-sdk-go-v2",
}

// funcParts returns the type and body of a function declaration or
// literal, or nils.
func funcParts(n ast.Node) (*ast.FuncType, *ast.BlockStmt) {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return n.Type, n.Body
	case *ast.FuncLit:
		return n.Type, n.Body
	}
	return nil, nil
}

// Modeled reports whether the package at path belongs to a library this
// package models by its API: its calls are judged here, not by what its
// own code does inside.
func Modeled(path string) bool { return isLibraryPath(path) }

// importsAny reports whether file imports a package of a known library, so
// that a file without one costs nothing.
func importsAny(env *Env, file *ast.File) bool {
	for _, imp := range file.Imports {
		path := importPath(imp)
		if isLibraryPath(path) {
			return true
		}
	}
	// A library value from a wrapper package (c.R(ctx).Post(url) on a
	// resty client, c.Get(url) on a retryablehttp client another
	// package made) is used in files that need not import the library.
	return env.Pkg != nil && env.wrapsLibrary()
}

// wrapsLibrary reports whether the package imports a library, or a
// package that imports one: its files may hold that library's values
// without importing it. Computed once per Env.
func (env *Env) wrapsLibrary() bool {
	if env.wraps == nil {
		w := slices.ContainsFunc(env.Pkg.Imports(), func(imp *types.Package) bool {
			return isLibraryPath(imp.Path()) || slices.ContainsFunc(imp.Imports(), func(p *types.Package) bool { return isLibraryPath(p.Path()) })
		})
		env.wraps = &w
	}
	return *env.wraps
}

func hasPathPrefix(path, prefix string) bool {
	return path == prefix || len(path) > len(prefix) && path[:len(prefix)] == prefix && path[len(prefix)] == '/'
}
