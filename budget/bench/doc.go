// Package bench compares, in one benchmark run, the hot paths of the
// budget package with the floor and with what users of the anchors would
// otherwise use: the retry budgets (Adaptive, the default, and
// TokenBucket) with a 20-line lock-free compare-and-swap token bucket (the
// floor), with the floor that also keeps exact counters, one atomic add per
// call (what any budget with exact Stats must do at least), and with a
// mutex-and-float64 retry throttle shaped like grpc-go's;
// the Breaker with github.com/sony/gobreaker/v2; Do on a call that
// succeeds with github.com/cenkalti/backoff/v5's Retry; Backoff with its
// ExponentialBackOff; Allow alone with golang.org/x/time/rate's Limiter.
//
// It is a separate module so that the budget module itself stays
// standard-library only. Every benchmark runs on GOMAXPROCS goroutines
// (b.RunParallel); run it with
//
//	go test -run '^$' -bench . -benchmem -cpu 1,2,$(nproc)
//
// budget/README.md records a table and how it was made.
package bench
