// Package bench compares, in one benchmark run, the hot paths of the
// budget package with what users of the anchors would otherwise use: the
// Budget (adaptive and gRPC bucket) with golang.org/x/time/rate's Limiter
// and a mutex-and-float64 retry throttle shaped like grpc-go's, the
// Breaker with github.com/sony/gobreaker/v2, and Backoff with
// github.com/cenkalti/backoff/v5.
//
// It is a separate module so that the budget module itself stays
// standard-library only. Run it with
//
//	go test -run '^$' -bench . -benchmem -cpu 1,2,8,32
package bench
