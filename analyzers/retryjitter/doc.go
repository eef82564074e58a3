// Package retryjitter defines an Analyzer that reports backoff without jitter.
//
// # Analyzer retryjitter
//
// retryjitter: report delays between attempts that grow without randomness
//
// Exponential backoff spreads retries out in time only when each client
// waits a different amount. Clients that failed at the same instant and
// double the same delay retry at the same instants again: the waves stay
// phase-locked. Full jitter — a delay drawn uniformly from
// [0, min(cap, base·2ⁿ)), base 100 ms, cap 10 s — breaks the wave.
//
// Reported: a wait between attempts whose delay grows (d *= 2, 1<<n,
// math.Pow, base*n, a helper that returns such a delay) and involves no
// randomness.
//
// Wrong:
//
//	delay := 100 * time.Millisecond
//	for i := 0; i < 3; i++ {
//		if err := call(); err == nil {
//			return nil
//		}
//		time.Sleep(delay)
//		delay *= 2
//	}
//
// Right:
//
//	time.Sleep(budget.Jitter(delay))
//
// Not reported: any delay with a random component (math/rand,
// math/rand/v2, crypto/rand, the bundled budget package); server-directed
// waits (Retry-After, rate-limit reset headers); delays from function
// values or config fields the analysis cannot see.
//
// Flags: -retryjitter.tests.
//
// Since v0.1.0.
package retryjitter

const doc = `report delays between attempts that grow without randomness

Clients that failed together and double the same delay retry together:
exponential backoff without jitter keeps the retry waves phase-locked. Draw
the delay uniformly from [0, d) (full jitter), e.g. with budget.Jitter.`
