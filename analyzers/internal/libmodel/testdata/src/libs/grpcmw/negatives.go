package grpcmw

import (
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
)

// Options from the caller are unknown.
func param(opts ...retry.CallOption) grpc.UnaryClientInterceptor {
	return retry.UnaryClientInterceptor(opts...)
}

// Disabled explicitly.
func disabled() grpc.UnaryClientInterceptor {
	return retry.UnaryClientInterceptor(retry.WithMax(3), retry.Disable())
}
