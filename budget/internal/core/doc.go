// Package core holds the clock-driven algorithms behind package budget's
// adaptive budget and circuit breaker. Every method that reads the clock
// takes the time, so that the retrystorm simulation (module budget/tools)
// drives the library's own code on a virtual clock; package budget wraps
// them with time.Now and keeps its exported surface free of …At twins.
package core
