// Package budget retries calls to remote dependencies without turning a
// brief failure into an outage.
//
// A retry helps a single call and hurts a fleet. When a shared dependency
// stalls, every caller times out at once and retries at once, and the
// dependency, already struggling, sees its normal load plus every retry:
// several times the demand, which causes more timeouts and more retries. The
// overload can outlast its trigger by a long way. This package bounds that
// feedback loop in several ways, sized as gRPC, Envoy, Finagle, the Google SRE
// book and AWS recommend.
//
// # Retry budget
//
// A Budget is a token bucket shared by every call to one dependency, with
// the semantics of gRPC retry throttling: it holds 1000 tokens (maxTokens),
// each failed attempt takes 1, each successful attempt gives back 0.1
// (tokenRatio), and a retry is allowed only while more than 500 tokens
// (maxTokens/2) remain. In steady state retries are held to about 10% of
// successes, so a blip adds roughly 10% of load, not 400%; when the
// dependency is down, the bucket is down to half after 500 failures and
// every caller fails fast until successes refill it. The zero Budget has
// these numbers; NewBudget sizes another. It is lock-free and does not
// allocate.
//
// RatioBudget is the Finagle and Linkerd flavour: retries may be at most a
// share of the requests in a sliding window (20% over 10s by default) plus a
// minimum of 10 retries per second so that quiet clients can still retry.
//
// Both report Stats; RetryRatio (retries over all requests) is the signal to
// watch: near 10% when healthy, a storm forming above about 20%.
//
// # Backoff with jitter
//
// Backoff spaces the retries of one call. By default it uses full jitter:
// the delay before retry n (from 0) is uniform in [0, min(10s, 100ms·2ⁿ)).
// The randomness is what matters: callers that failed at the same moment
// then retry at different moments instead of in waves. Equal and
// decorrelated jitter are available, and NoJitter for the rare single
// client. Jitter randomises a single delay, and Sleep waits without
// sleeping through a cancellation or past a deadline.
//
// # Attempts, deadlines and the typed error
//
// Do and DoValue run an operation up to 3 times (never more than 10),
// consulting the budget (DefaultBudget unless another is given) before every
// retry and recording every outcome in it. They wait with a timer raced
// against the context, never begin a wait that would end after the
// context's deadline, stop at once on an error marked Permanent, and honour
// server pushback given by RetryAfter up to a clamp of 30s. When they give
// up they return a single *Error that says why (attempts, budget, deadline,
// cancellation, permanent error, open breaker) and wraps the last failure,
// so errors.Is and errors.As still see it.
//
// # Circuit breaker
//
// A Breaker per dependency takes retries to zero when the dependency is
// dead rather than merely unhealthy: it opens when more than 50% of at
// least 20 requests in a 10s window failed, refuses everything for 5s, then
// lets a single probe through to decide whether to close. Pass it to Do
// with WithBreaker.
//
// # HTTP and idempotency
//
// Transport is an http.RoundTripper that applies all of this to HTTP, with
// one budget per host. It retries only what is safe to send twice: the
// idempotent methods of RFC 9110, and POST or PATCH only with an idempotency
// key that stays the same on every attempt of one logical request.
// NewIdempotencyKey mints such a key; mint it once per operation, before
// any retry. Re-sent requests say which retry they are (X-Retry-Attempt) and
// how long the caller will still wait (X-Request-Timeout-Ms), hints a server
// can use to shed work nobody is waiting for.
//
// # Testing
//
// Everything that waits or draws a random number can be made deterministic:
// Backoff.Rand takes the randomness, BreakerConfig.Now and the …At methods
// of RatioBudget take the clock, and the waits are plain timers that
// testing/synctest runs on fake time.
//
// # Further reading
//
//   - gRFC A6, gRPC retry design and retry throttling:
//     https://github.com/grpc/proposal/blob/master/A6-client-retries.md
//   - AWS Architecture Blog, "Exponential Backoff And Jitter":
//     https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/
//   - Site Reliability Engineering, chapter 21, "Handling Overload":
//     https://sre.google/sre-book/handling-overload/
//   - Finagle RetryBudget:
//     https://twitter.github.io/finagle/guide/Clients.html#retries
//   - Envoy retry_budget:
//     https://www.envoyproxy.io/docs/envoy/latest/api-v3/config/cluster/v3/circuit_breaker.proto
package budget
