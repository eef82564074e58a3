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
// A RetryBudget is shared by every call to one dependency and holds its
// retries to a small share of that dependency's traffic. There are two, one
// type per algorithm, each with one constructor that validates its
// parameters.
//
// Adaptive is the default: its zero value, which is what Do and the
// Transport's per-host budgets use, sizes itself from the traffic it sees:
// a retry is allowed while the retries granted in the last second
// (DefaultBudgetWindow) are fewer than 10% (DefaultRetryRatio) of the first
// tries that succeeded in it, plus one retry every 5 s
// (DefaultMinRetryRate) that the traffic need not have earned. Only first
// tries earn, as in Finagle. So it bites within about a second at any
// rate: a process sending 17 requests a second (one of the seed's 400 pods)
// may retry about once a second while healthy, one sending 50 000 may retry
// 5 000 times; when the dependency stalls the successes stop and a second
// later so do the retries, but for the one every 5 s. In the seed's drill
// (400 pods, each with its own budget, a 2 s stall; the retrystorm
// simulator of module budget/tools) the load on the dependency peaks at
// 1.04× its demand and it is healthy 2.5 s after the stall, where naive
// retries reach 4.50× and keep it down. NewAdaptive sets the ratio, the
// window and the floor.
//
// TokenBucket is gRPC retry throttling (gRFC A6): its zero value is a
// bucket of 1000 tokens (maxTokens); each failed attempt takes 1, each
// success gives back 0.1 (tokenRatio), and a retry is allowed only while
// more than 500 remain. Its burst is fixed, 500 failures per bucket: right
// for one bucket shared by a fleet, or a process sending thousands of
// requests a second, and far too large for a small pod, whose bucket never
// drains in a 2 s stall (400 such pods latch like naive retries, at
// 4.70×). NewTokenBucket sizes another. Neither budget allocates.
//
// The budgets report Stats; RetryRatio (retries over all requests) is the
// signal to watch: near 10% when healthy, a storm forming above about 20%,
// and RetriesDenied counts the retries an exhausted budget refused. The
// package holds no registry and publishes nothing: package
// github.com/retrylint/retrylint/budget/registry keeps one budget per
// dependency name and publishes the counters through expvar, for services
// that ask for it. Do without WithBudget shares one process-wide Adaptive;
// give each dependency its own, so that one that fails cannot starve the
// retries of others.
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
// consulting the budget before every retry and recording every outcome in
// it. They wait with a timer raced against the context, never begin a wait
// that would end after the context's deadline, stop at once on an error
// marked Permanent, and honour server pushback given by RetryAfter up to a
// clamp of 30s. An attempt ended by the caller's own context is not the
// dependency's failure and is recorded nowhere. OnRetry observes the call. When they give up they return a single *Error that
// says why (attempts, budget, deadline, cancellation, permanent error, open
// breaker) and wraps the last failure, so errors.Is and errors.As still see
// it.
//
// # Circuit breaker
//
// A Breaker per dependency takes retries to zero when the dependency is
// dead rather than merely unhealthy: it opens when more than 50% of at
// least 20 requests in a 10s window failed, refuses everything for 5s, then
// lets a single probe through to decide whether to close. Admit returns a
// Permit whose Done reports only into the state that admitted it, so a
// straggler from before is never taken as the probe's outcome.
// Its fields classify outcomes (IsSuccessful, IsExcluded), name the
// breaker and tune it; the zero Breaker has the defaults. Pass it to Do
// with WithBreaker.
//
// # HTTP and idempotency
//
// Transport is an http.RoundTripper that applies all of this to HTTP, with
// one budget per host. It retries only what is safe to send
// twice: the idempotent methods of RFC 9110, and POST or PATCH only with an
// idempotency key that stays the same on every attempt of one logical
// request, and never an error no retry can fix (a TLS certificate the
// client does not trust, an unsupported scheme). Classify sees
// the request, the response and the error; OnRetry observes each retry and
// PrepareRetry re-signs the request about to be re-sent. NewIdempotencyKey
// mints a key; mint it once per operation, before any retry. Re-sent
// requests say which retry they are (X-Retry-Attempt) and how long the
// caller will still wait (X-Request-Timeout-Ms), hints a server can use to
// shed work nobody is waiting for.
//
// # Server-side shedding
//
// Package shed (github.com/retrylint/retrylint/budget/shed) is the
// server's half: Guard, an http.Handler middleware with bounded
// concurrency, a short newest-first queue, first tries before retries (by
// AttemptHeader), early drops of requests whose TimeoutHeader has passed,
// and an immediate 503 with a jittered Retry-After for what it sheds.
// GUARDRAILS.md compares the three guardrails with the simulator's numbers.
//
// # Testing
//
// Everything that waits or draws a random number can be made
// deterministic: Backoff.Rand takes the randomness, and every wait and
// every clock read is a plain timer or time.Now, which testing/synctest
// runs on fake time. There are no …At twins: the clock-taking algorithms
// live in an internal package that the retrystorm simulation drives on its
// virtual clock.
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
