// Package retrysleep defines an Analyzer that reports fixed or absent
// delays between retry attempts.
//
// # Analyzer retrysleep
//
// retrysleep: report retry loops that wait a fixed delay, or none, between attempts
//
// A fixed delay (time.Sleep(time.Second)) keeps every client that failed
// at the same moment in lockstep: they all come back together, and the
// recovering service meets the whole wave at once. No delay at all is
// worse: every caller hits the failing dependency again immediately. Wait
// with exponential backoff and full jitter: rand[0, min(10s, 100ms·2ⁿ)).
//
// Reported: a retry loop whose wait between attempts is the same
// constant every time (a constant, a local set once, a ticker, a library's
// constant policy, a timer a select loop re-arms when an attempt fails),
// at the wait; a retry loop around a remote call with no wait at all, at
// the loop; a consume loop whose error branch calls a remote dependency
// again at once (continue, no wait), at the loop.
//
// Wrong:
//
//	for i := 0; i < 3; i++ {
//		if err := call(); err == nil {
//			return nil
//		}
//		time.Sleep(time.Second)
//	}
//
// Right:
//
//	backoff := budget.Backoff{Base: time.Second}.Start()
//	for i := 0; i < 3; i++ {
//		if err := call(); err == nil {
//			return nil
//		}
//		time.Sleep(backoff.Next())
//	}
//
// Not reported: a delay with any random component (a constant plus random
// jitter is fine); server-directed waits (Retry-After); delays from
// function values or config fields the analysis cannot see; immediate
// retries of calls that do not reach the network; consume loops whose
// error branch may block on a channel, goes on after a timeout the call
// waited out, handles an item the round produced, or falls through as a
// success does. A generic retry helper (a loop retrying a function it is given)
// that waits for no caller is reported, unless every call of it in its
// package hands it local work.
//
// Flags: -retrysleep.tests.
//
// Since v0.1.0.
package retrysleep

const doc = `report retry loops that wait a fixed delay, or none, between attempts

A fixed delay keeps clients that failed together in lockstep; no delay hits
a failing dependency again at once. Wait with exponential backoff and full
jitter (budget.Backoff).`
