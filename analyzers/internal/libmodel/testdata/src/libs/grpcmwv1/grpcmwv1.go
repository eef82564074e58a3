package grpcmwv1

import (
	"time"

	grpc_retry "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	"google.golang.org/grpc"
)

// go-grpc-middleware v1's retry package reads as v2's: the same
// interceptors, options and backoffs. It has no WithRetriable, so no
// budget can stand behind it.

func linear() grpc.UnaryClientInterceptor {
	return grpc_retry.UnaryClientInterceptor(grpc_retry.WithMax(3), grpc_retry.WithBackoff(grpc_retry.BackoffLinear(time.Second))) // want `retrysleep: retry.BackoffLinear waits the same delay` `retrybudget: go-grpc-middleware retry interceptor retries with no retry budget`
}

func exponential() grpc.StreamClientInterceptor {
	return grpc_retry.StreamClientInterceptor(grpc_retry.WithMax(5), grpc_retry.WithBackoff(grpc_retry.BackoffExponential(100*time.Millisecond))) // want `retryjitter: retry.BackoffExponential grows without jitter` `retrybudget: go-grpc-middleware retry interceptor retries with no retry budget`
}

// The default backoff is linear with 10% jitter: only the budget is
// missing.
func defaults() grpc.DialOption {
	return grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(grpc_retry.WithMax(3))) // want `retrybudget: go-grpc-middleware retry interceptor retries with no retry budget`
}

// Negatives.

// The default max is 0: retries off.
func off() grpc.DialOption {
	return grpc.WithUnaryInterceptor(grpc_retry.UnaryClientInterceptor(grpc_retry.WithBackoff(grpc_retry.BackoffLinear(time.Second))))
}

// WithMax(0) is off too.
func zero() grpc.UnaryClientInterceptor {
	return grpc_retry.UnaryClientInterceptor(grpc_retry.WithMax(0), grpc_retry.WithBackoff(grpc_retry.BackoffExponential(time.Second)))
}

// Disabled explicitly.
func disabled() grpc.UnaryClientInterceptor {
	return grpc_retry.UnaryClientInterceptor(grpc_retry.WithMax(3), grpc_retry.Disable())
}

// Options from the caller are unknown.
func param(opts ...grpc_retry.CallOption) grpc.UnaryClientInterceptor {
	return grpc_retry.UnaryClientInterceptor(opts...)
}

// Per-call options enable retries on a call, not in the interceptor.
func perCall() []grpc.CallOption {
	return []grpc.CallOption{grpc_retry.WithMax(3), grpc_retry.WithBackoff(grpc_retry.BackoffLinear(time.Second))}
}
