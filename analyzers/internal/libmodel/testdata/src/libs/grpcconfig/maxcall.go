package grpcconfig

import "google.golang.org/grpc"

// WithMaxCallAttempts raises grpc-go's cap: maxAttempts 8 is honoured.
func raised() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithMaxCallAttempts(8),
		grpc.WithDefaultServiceConfig(`{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 8, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}], "RetryThrottling": {"maxTokens": 100, "tokenRatio": 0.1}}`),
	}
}

// A package-level variable initialised with a literal is followed, and the
// fix rewrites the literal.
var config = "{\n  \"methodConfig\": [{\"name\": [{}], \"retryPolicy\": {\"maxAttempts\": 2, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [\"UNAVAILABLE\"]}}]\n}"

func fromVar() grpc.DialOption {
	return grpc.WithDefaultServiceConfig(config) // want `retrybudget: gRPC service config has a retryPolicy but no retryThrottling`
}

// Health checking only: no retry policy.
func health() grpc.DialOption {
	return grpc.WithDefaultServiceConfig(`{"healthCheckConfig": {"serviceName": ""}}`)
}
