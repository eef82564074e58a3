// Package retrybudget defines an Analyzer that reports retry loops with no
// retry budget.
//
// # Analyzer retrybudget
//
// retrybudget: report retry loops around remote calls that consult no retry budget, and unbounded retry loops
//
// A retry is good alone and a bomb in aggregate. When a shared dependency
// stalls, every caller retries at once and the recovering service sees its
// demand multiplied (about 5x with 400 clients retrying immediately): the
// outage outlives its trigger. A retry budget shared by all calls to a
// dependency — a token bucket where each failure takes a token, each
// success gives back 0.1, and retries stop while the bucket is below half
// (gRPC: maxTokens 1000, tokenRatio 0.1) — holds retries near 10% of
// successful traffic, so a blip adds about 1.1x load, not 5x.
//
// Reported:
//
//   - a retry loop (or goto/recursive retry) around a call that reaches the
//     network (net/http, net, database/sql, gRPC, a helper that does) that
//     consults no budget, limiter or breaker;
//   - any retry loop with neither an attempt cap, an elapsed-time check nor
//     a context it watches (unbounded).
//
// Wrong:
//
//	for i := 0; i < 5; i++ {
//		resp, err := client.Do(req)
//		if err == nil {
//			return resp, nil
//		}
//		time.Sleep(budget.Jitter(100 * time.Millisecond << i))
//	}
//
// Right:
//
//	var ledgerBudget budget.Adaptive // one per dependency, shared
//	...
//	for i := 0; i < 3; i++ {
//		resp, err := client.Do(req)
//		if err == nil {
//			ledgerBudget.Record(nil)
//			return resp, nil
//		}
//		ledgerBudget.RecordFailure()
//		if !ledgerBudget.Allow() {
//			return nil, err
//		}
//		...
//	}
//
// Not reported: loops that call (*budget.Adaptive).Allow, a golang.org/x/time/rate
// limiter, a sony/gobreaker or failsafe-go breaker, or a function named in
// -retrybudget.budget-funcs (anywhere in the enclosing function); consume
// loops (one long-lived consumer does not multiply per-request load);
// failover loops over a list of endpoints; loops around calls that do not
// reach the network (for the missing budget).
//
// Suggested fix: record the outcomes in a package-level budget.Adaptive
// named for the dependency (a success where it leaves, a retried failure
// at the guard) and guard each retry with its Allow, just
// before the loop waits (break for a bounded loop, so the code after it
// gives up as before; a return for a for loop); an unbounded for loop
// also counts its attempts and gives up after budget.DefaultAttempts.
//
// Flags: -retrybudget.budget-funcs, -retrybudget.remote-pkgs, -retrybudget.tests.
//
// Since v0.1.0.
package retrybudget

const doc = `report retry loops around remote calls that consult no retry budget, and unbounded retry loops

A retry loop around a call that reaches the network (net/http, net,
database/sql, gRPC, or a function that does) must consult a shared retry
budget (Budget.Allow, x/time/rate, a circuit breaker): under an outage every
caller retries and load multiplies. A retry loop with neither an attempt cap,
an elapsed-time check nor a context it watches retries forever.`
