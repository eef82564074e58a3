package grpcmw

import (
	"context"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"libs/remote"
)

// Safe: the default max is 0: retries off.
func off() grpc.DialOption {
	return grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(retry.WithBackoff(retry.BackoffExponential(time.Second))))
}

// Safe: jittered backoff, retries gated by a budget.
func safe() (*grpc.ClientConn, error) {
	opts := []retry.CallOption{
		retry.WithMax(3),
		retry.WithBackoff(retry.BackoffExponentialWithJitter(100*time.Millisecond, 0.5)),
		retry.WithRetriable(func(err error) bool { return remote.Limiter.Allow() }),
	}
	return grpc.NewClient("localhost:1", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(opts...)))
}

func noJitter() grpc.UnaryClientInterceptor {
	return retry.UnaryClientInterceptor(retry.WithMax(3), retry.WithBackoff(retry.BackoffExponential(time.Second)), retry.WithOnRetryCallback(func(ctx context.Context, attempt uint, err error) {})) // want `retryjitter: retry.BackoffExponential grows without jitter`
}

func linear() grpc.StreamClientInterceptor {
	return retry.StreamClientInterceptor(retry.WithMax(3), retry.WithBackoff(retry.BackoffLinear(time.Second))) // want `retrysleep: retry.BackoffLinear waits the same delay` `retrybudget: go-grpc-middleware retry interceptor retries with no retry budget`
}
