package grpcconfig

import (
	"google.golang.org/grpc"
)

// Safe: retryThrottling present.
const safeConfig = `{
	"methodConfig": [{"name": [{"service": "echo.Echo"}], "retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}],
	"retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}
}`

func safe() grpc.DialOption { return grpc.WithDefaultServiceConfig(safeConfig) }

// Safe: no retryPolicy.
func noRetry() grpc.DialOption {
	return grpc.WithDefaultServiceConfig(`{"loadBalancingConfig": [{"round_robin": {}}]}`)
}

// Safe: not a constant.
func dynamic(js string) grpc.DialOption { return grpc.WithDefaultServiceConfig(js) }

func raw() grpc.DialOption {
	return grpc.WithDefaultServiceConfig(`{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`) // want `retrybudget: gRPC service config has a retryPolicy but no retryThrottling`
}

func interpreted() grpc.DialOption {
	return grpc.WithDefaultServiceConfig("{\"methodConfig\": [{\"name\": [{}], \"retryPolicy\": {\"maxAttempts\": 3, \"initialBackoff\": \"0.1s\", \"maxBackoff\": \"1s\", \"backoffMultiplier\": 2, \"retryableStatusCodes\": [\"UNAVAILABLE\"]}}]}") // want `retrybudget: gRPC service config has a retryPolicy but no retryThrottling`
}

const tooMany = `{"methodConfig": [{"name": [{}], "retryPolicy": {"maxAttempts": 10, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}], "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}`

func attempts() grpc.DialOption {
	return grpc.WithDefaultServiceConfig(tooMany) // want `retrybudget: gRPC retryPolicy maxAttempts 10 is above 5: grpc-go silently caps it at 5`
}

func invalid() grpc.DialOption {
	return grpc.WithDefaultServiceConfig(`{"methodConfig": [}`) // want `retrybudget: gRPC service config is not valid JSON \(invalid character`
}

// Not rewritten: the JSON is spelled by concatenation.
func concatenated() grpc.DialOption {
	return grpc.WithDefaultServiceConfig(`{"methodConfig": [{"name": [{}], ` + `"retryPolicy": {"maxAttempts": 2, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`) // want `retrybudget: gRPC service config has a retryPolicy but no retryThrottling`
}
