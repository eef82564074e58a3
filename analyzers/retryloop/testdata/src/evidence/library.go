package evidence

import "google.golang.org/grpc"

// A library site's evidence is what its configuration shows: a gRPC
// retry policy without retryThrottling has no budget; the waits, cap and
// deadline the config leaves to grpc-go are unknown.
var retryConfig = grpc.WithDefaultServiceConfig(`{"methodConfig": [{"name": [{"service": "svc"}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`) // want `evidence wait=unknown\(the library configuration in view does not decide it\) delay=unknown jitter=unknown\(the library configuration in view does not decide it\) remote=present budget=absent cap=unknown\(the library configuration in view does not decide it\) stop=unknown\(the library configuration in view does not decide it\) deadline=unknown\(the library configuration in view does not decide it\) cancel=unknown\(the library configuration in view does not decide it\)$`

// Throttled: nothing shown absent, and so no library site at all.
var throttled = grpc.WithDefaultServiceConfig(`{"retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}, "methodConfig": [{"name": [{"service": "svc"}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`)
