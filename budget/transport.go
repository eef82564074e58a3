package budget

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/retrylint/retrylint/budget/internal/header"
)

// Header names used by Transport.
const (
	// IdempotencyKeyHeader is the idempotency key header of the IETF
	// httpapi draft; Transport also recognises "X-Idempotency-Key".
	IdempotencyKeyHeader = "Idempotency-Key"
	// AttemptHeader is set on re-sent requests to the retry number: 1 on
	// the first retry, 2 on the second.
	AttemptHeader = "X-Retry-Attempt"
	// TimeoutHeader carries the caller's remaining deadline in whole
	// milliseconds, when the request's context has a deadline.
	TimeoutHeader = "X-Request-Timeout-Ms"
)

// DefaultMaxDrain is how much of a failed response's body Transport reads
// before closing it, so the connection can be reused without reading an
// unbounded body.
const DefaultMaxDrain = 64 << 10

// Transport is an http.RoundTripper that retries failed requests safely,
// under a retry budget and with jittered backoff.
//
// Which requests are retried: the idempotent methods of RFC 9110 §9.2.2 (GET,
// HEAD, OPTIONS, TRACE, PUT, DELETE), and any other method, such as POST and
// PATCH, only when the request carries an idempotency key header
// (Idempotency-Key, X-Idempotency-Key or KeyHeader) or MintKeys is set. A
// request with a body is retried only if it can be rewound through
// GetBody (http.NewRequest sets it for the common body types); otherwise it
// is sent once. Everything else is sent exactly once, so a non-idempotent
// write is never duplicated by Transport.
//
// When a request is retried: after a transport error, or a response whose
// status RetryStatus accepts (by default 429, 500, 502, 503 and 504), while
// fewer than Attempts attempts have been made, the context is not done, the
// budget allows it, and the wait ends before the context's deadline. The
// wait is the Backoff delay, or the Retry-After of a 429 or 503 response
// (seconds or HTTP-date) when that is longer, clamped to MaxRetryAfter. A
// failed response that will be retried is drained (up to MaxDrain bytes)
// and closed; when Transport gives up it returns the last response or
// error unchanged, so the caller sees what the server said.
//
// Every request is cloned per attempt; the caller's request is never
// modified. Re-sent requests carry the AttemptHeader, and every attempt whose
// context has a deadline carries the TimeoutHeader. These headers are hints:
// a server may use them to schedule or shed work (drop a request whose
// caller has already given up, serve first attempts first) but must not
// trust them for anything else, since any client can send them.
//
// Every attempt's outcome is recorded in the budget for the request's host:
// Budget if set, otherwise an Adaptive per host created on first use. Requests
// that are not retryable are recorded too, so their successes earn retries.
//
// A Transport is safe for concurrent use. Its fields must not be changed,
// and it must not be copied, after first use.
type Transport struct {
	// Base sends each attempt; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Attempts is the most attempts per request, the first included. Zero
	// or negative means DefaultAttempts (3); above MaxAttempts (10) means
	// 10.
	Attempts int
	// Backoff is the delay policy between attempts; the zero value is full
	// jitter with a 100ms base and a 10s cap.
	Backoff Backoff
	// Budget, if set, is the one RetryBudget shared by every host. Nil means
	// a zero Adaptive per host (URL host and port), created on first use.
	Budget RetryBudget
	// MintKeys, if set, makes non-idempotent requests without a key
	// retryable by minting one key per request with NewIdempotencyKey and
	// sending it, the same on every attempt, in KeyHeader. Turn it on only
	// for servers that honour the key; a server that ignores it will
	// execute the retried write twice.
	MintKeys bool
	// KeyHeader is the header MintKeys writes, and an extra header that
	// counts as an idempotency key. Empty means IdempotencyKeyHeader.
	KeyHeader string
	// AttemptHeader overrides the name of the retry-number header. Empty
	// means the AttemptHeader constant; "-" sends none.
	AttemptHeader string
	// TimeoutHeader overrides the name of the remaining-deadline header.
	// Empty means the TimeoutHeader constant; "-" sends none.
	TimeoutHeader string
	// MaxRetryAfter clamps the Retry-After wait. Zero or negative means
	// DefaultMaxRetryAfter (30s).
	MaxRetryAfter time.Duration
	// MaxDrain is how many bytes of a failed response's body are read
	// before it is closed. Zero means DefaultMaxDrain (64 KiB); negative
	// means none.
	MaxDrain int64
	// RetryStatus reports whether a response status is a failure worth
	// retrying. Nil means 429, 500, 502, 503 and 504.
	RetryStatus func(code int) bool
	// Classify, if set, decides the outcome of each attempt from the
	// caller's request and the attempt's response or error; returning
	// OutcomeDefault leaves the decision to the rules above. It is not
	// asked about an attempt ended by the request's own context, which is
	// never recorded. Whatever it says, a request that is not safe to
	// resend is sent once.
	Classify func(req *http.Request, resp *http.Response, err error) Outcome
	// OnRetry, if set, is called before each wait with the caller's
	// request, the number of the attempt that failed (from 1), its
	// response or error, and the delay about to be waited. The response's
	// body is drained and closed after OnRetry returns; do not keep it.
	OnRetry func(req *http.Request, attempt int, resp *http.Response, err error, delay time.Duration)
	// PrepareRetry, if set, is called on the copy of the request about to
	// be re-sent, after the retry headers are set: re-sign it or refresh
	// its credentials there. An error ends the round trip with that error.
	PrepareRetry func(retry *http.Request) error

	budgets sync.Map // host -> *Adaptive
}

// errStatus stands for a response with a retryable status when it is
// recorded into a budget.
var errStatus = errors.New("budget: retryable HTTP status")

func (t *Transport) base() http.RoundTripper {
	if t.Base != nil {
		return t.Base
	}
	return http.DefaultTransport
}

func (t *Transport) attempts() int {
	switch {
	case t.Attempts <= 0:
		return DefaultAttempts
	case t.Attempts > MaxAttempts:
		return MaxAttempts
	}
	return t.Attempts
}

func (t *Transport) keyHeader() string {
	if t.KeyHeader == "" {
		return IdempotencyKeyHeader
	}
	return t.KeyHeader
}

func (t *Transport) retryStatus(code int) bool {
	if t.RetryStatus != nil {
		return t.RetryStatus(code)
	}
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// budgetFor returns the budget that requests to host (as in URL.Host,
// with the port if any) are recorded in: Budget if set, otherwise the host's
// own *Adaptive, created on first use.
func (t *Transport) budgetFor(host string) RetryBudget {
	if t.Budget != nil {
		return t.Budget
	}
	if b, ok := t.budgets.Load(host); ok {
		return b.(*Adaptive)
	}
	b, _ := t.budgets.LoadOrStore(host, new(Adaptive))
	return b.(*Adaptive)
}

// isIdempotent reports whether method is idempotent by RFC 9110 §9.2.2:
// GET, HEAD, OPTIONS, TRACE, PUT or DELETE. The empty method means GET.
func isIdempotent(method string) bool {
	switch method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace,
		http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// hasKey reports whether h carries a non-empty idempotency key.
func (t *Transport) hasKey(h http.Header) bool {
	return h.Get(IdempotencyKeyHeader) != "" || h.Get("X-Idempotency-Key") != "" ||
		h.Get(t.keyHeader()) != ""
}

// RoundTrip sends req, retrying it as described on Transport. It returns the
// first successful response, or the last response or error when it gives
// up, or the context's error if the context ends during a wait. Like every
// RoundTripper it closes req.Body, and it does not modify req.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil {
		return t.base().RoundTrip(req)
	}
	rt := t.start(req)
	for attempt := 1; ; attempt++ {
		resp, err, done := rt.send(attempt)
		if done {
			return resp, err
		}
		if resp, err, done = rt.wait(attempt, resp, err); done {
			return resp, err
		}
	}
}

// roundTrip is the state of one RoundTrip.
type roundTrip struct {
	t                            *Transport
	req                          *http.Request
	ctx                          context.Context
	budget                       RetryBudget
	maxAttempts                  int
	mint                         string // a minted idempotency key
	attemptHeader, timeoutHeader string
	seq                          *Sequence
	body                         io.ReadCloser // the next attempt's body
	lastResp                     *http.Response
	lastErr                      error
}

// start decides how often req may be sent and with which headers.
func (t *Transport) start(req *http.Request) roundTrip {
	rt := roundTrip{
		t: t, req: req, ctx: req.Context(), budget: t.budgetFor(req.URL.Host),
		maxAttempts:   t.attempts(),
		attemptHeader: header.Name(t.AttemptHeader, AttemptHeader),
		timeoutHeader: header.Name(t.TimeoutHeader, TimeoutHeader),
		body:          req.Body,
	}
	if !isIdempotent(req.Method) && !t.hasKey(req.Header) {
		if t.MintKeys {
			rt.mint = NewIdempotencyKey()
		} else {
			rt.maxAttempts = 1
		}
	}
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		rt.maxAttempts = 1 // cannot rewind the body
	}
	return rt
}

// request builds the copy of the request that attempt sends.
func (rt *roundTrip) request(attempt int) *http.Request {
	r := rt.req.Clone(rt.ctx)
	r.Body = rt.body
	if r.Header == nil { // http.Client never sends one, but RoundTrip may be called directly
		r.Header = make(http.Header)
	}
	if rt.mint != "" {
		r.Header.Set(rt.t.keyHeader(), rt.mint)
	}
	if attempt > 1 && rt.attemptHeader != "" {
		r.Header.Set(rt.attemptHeader, strconv.Itoa(attempt-1))
	}
	if dl, ok := rt.ctx.Deadline(); ok && rt.timeoutHeader != "" {
		ms := max(time.Until(dl).Milliseconds(), 0)
		r.Header.Set(rt.timeoutHeader, strconv.FormatInt(ms, 10))
	}
	return r
}

// send makes attempt and records its outcome; done reports that RoundTrip
// returns resp and err.
func (rt *roundTrip) send(attempt int) (resp *http.Response, err error, done bool) {
	r := rt.request(attempt)
	if attempt > 1 && !commitRetry(rt.budget) {
		closeBody(r)
		return rt.lastResp, rt.lastErr, true
	}
	if attempt > 1 && rt.t.PrepareRetry != nil {
		if perr := rt.t.PrepareRetry(r); perr != nil {
			closeBody(r)
			return nil, perr, true
		}
	}
	resp, err = rt.t.base().RoundTrip(r)
	if err != nil && rt.ctx.Err() != nil {
		// The caller's own context ended the attempt: not the
		// dependency's failure, so nothing is recorded.
		return resp, err, true
	}
	switch rt.t.classify(rt.req, resp, err) {
	case OutcomeSuccess:
		rt.budget.Record(nil)
		return resp, err, true
	case OutcomeFail:
		rt.budget.Record(Permanent(orStatus(err))) // counted, but drains nothing
		return resp, err, true
	}
	rt.budget.Record(orStatus(err))
	return resp, err, attempt >= rt.maxAttempts || rt.ctx.Err() != nil
}

// orStatus is err, or errStatus for a failed response.
func orStatus(err error) error {
	if err != nil {
		return err
	}
	return errStatus
}

func closeBody(r *http.Request) {
	if r.Body != nil {
		r.Body.Close()
	}
}

// wait waits before the retry of a failed attempt, unless the deadline,
// the budget or the body forbid it; done reports that RoundTrip returns
// resp and err.
func (rt *roundTrip) wait(attempt int, resp *http.Response, err error) (*http.Response, error, bool) {
	if rt.seq == nil {
		rt.seq = rt.t.Backoff.Start()
	}
	delay := rt.seq.Next()
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if ra, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			delay = max(delay, clampPushback(ra, rt.t.MaxRetryAfter))
		}
	}
	if dl, ok := rt.ctx.Deadline(); ok && time.Until(dl) <= delay {
		return resp, err, true
	}
	if !peekRetry(rt.budget) {
		return resp, err, true
	}
	if rt.t.OnRetry != nil {
		rt.t.OnRetry(rt.req, attempt, resp, err, delay)
	}
	next := rt.body
	if rt.req.GetBody != nil {
		b, gerr := rt.req.GetBody()
		if gerr != nil {
			return resp, err, true // cannot rewind: give up with what we have
		}
		next = b
	}
	if resp != nil {
		rt.t.discard(resp)
	}
	if serr := Sleep(rt.ctx, delay); serr != nil {
		if next != nil {
			next.Close()
		}
		return nil, serr, true
	}
	rt.body = next
	rt.lastResp, rt.lastErr = nil, err
	if resp != nil {
		rt.lastErr = &budgetDeniedError{status: resp.StatusCode}
	}
	return nil, nil, false
}

// Outcome is what an attempt of a Transport came to, as Transport.Classify
// decides it.
type Outcome int

const (
	// OutcomeDefault leaves the decision to the Transport's own rules.
	OutcomeDefault Outcome = iota
	// OutcomeSuccess: the dependency answered; return the response.
	OutcomeSuccess
	// OutcomeRetry: a failure worth retrying, if the budget allows.
	OutcomeRetry
	// OutcomeFail: a failure no retry can fix; return it at once. It is
	// recorded like an error marked Permanent: counted, drains nothing.
	OutcomeFail
)

// classify applies Classify, then the default rules.
func (t *Transport) classify(req *http.Request, resp *http.Response, err error) Outcome {
	if t.Classify != nil {
		if o := t.Classify(req, resp, err); o != OutcomeDefault {
			return o
		}
	}
	switch {
	case err != nil && unretryable(err):
		return OutcomeFail
	case err != nil, t.retryStatus(resp.StatusCode):
		return OutcomeRetry
	}
	return OutcomeSuccess
}

// budgetDeniedError is what RoundTrip returns when the budget, asked again
// after the wait, refuses a retry whose failed response was already drained.
type budgetDeniedError struct{ status int }

func (e *budgetDeniedError) Error() string {
	return "budget: retry budget exhausted after HTTP status " + strconv.Itoa(e.status)
}

// unretryable reports whether err, from sending a request, is one that no
// retry can fix: an unsupported URL scheme, or a TLS certificate the client
// does not accept (unknown authority, wrong host name, expired or otherwise
// invalid). Transport sends such a request once and takes no token for it.
func unretryable(err error) bool {
	var ua x509.UnknownAuthorityError
	var ci x509.CertificateInvalidError
	var hn x509.HostnameError
	var cv *tls.CertificateVerificationError
	switch {
	case err == nil:
		return false
	case errors.As(err, &ua), errors.As(err, &ci), errors.As(err, &hn), errors.As(err, &cv):
		return true
	}
	// net/http reports an unknown scheme with an unexported error type.
	return strings.Contains(err.Error(), "unsupported protocol scheme")
}

// discard drains up to MaxDrain bytes of resp's body and closes it.
func (t *Transport) discard(resp *http.Response) {
	n := t.MaxDrain
	if n == 0 {
		n = DefaultMaxDrain
	}
	if n > 0 {
		io.CopyN(io.Discard, resp.Body, n)
	}
	resp.Body.Close()
}

// parseRetryAfter parses a Retry-After value (RFC 9110 §10.2.3): a number of
// seconds or an HTTP-date, taken relative to now. Dates in the past mean no
// wait.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if isDigits(v) {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n > math.MaxInt64/int64(time.Second) {
			return math.MaxInt64, true // absurdly large: clamped by the caller
		}
		return time.Duration(n) * time.Second, true
	}
	when, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	d := when.Sub(now)
	if d < 0 {
		d = 0
	}
	return d, true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
