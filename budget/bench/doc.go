// Package bench compares, in one benchmark run, the hot path of the
// budget package's lock-free Budget with golang.org/x/time/rate's Limiter and
// with a mutex-and-float64 retry throttle shaped like grpc-go's.
//
// It is a separate module so that the budget module itself stays
// standard-library only. Run it with
//
//	go test -run '^$' -bench . -benchmem -cpu 1,2
package bench
