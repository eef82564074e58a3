package shapes

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"time"
)

func counted(url string) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

func rangeInt(ctx context.Context, c *http.Client, req *http.Request) error {
	for attempt := range 5 { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=unknown remote`
		resp, err := c.Do(req)
		if err != nil {
			time.Sleep(time.Duration(attempt) * 100 * time.Millisecond)
			continue
		}
		resp.Body.Close()
		return nil
	}
	return errors.New("gave up")
}

func bare(url string) *http.Response {
	delay := 100 * time.Millisecond
	for { // want `retry site: shape=bare bound=none delay=growing jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err != nil {
			time.Sleep(delay)
			delay *= 2
			continue
		}
		return resp
	}
}

func jittered(ctx context.Context, url string) error {
	base := 100 * time.Millisecond
	for i := 0; i < 4; i++ { // want `retry site: shape=counted bound=counter delay=unknown jitter=yes ctx=caller consulted remote`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		d := time.Duration(rand.Int64N(int64(base << i)))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return errors.New("gave up")
}

func status(url string) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 500 {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(time.Duration(math.Pow(2, float64(i))) * time.Second)
	}
	return nil, errors.New("gave up")
}

func flag(op func() error) {
	done := false
	for !done { // want `retry site: shape=flag bound=none delay=fixed jitter=no ctx=unknown`
		if err := op(); err == nil {
			done = true
		} else {
			time.Sleep(50 * time.Millisecond)
		}
	}
}

func gotoRetry(url string) (*http.Response, error) {
	n := 0
retry:
	resp, err := http.Get(url)
	if err != nil {
		if n < 3 {
			n++
			time.Sleep(time.Second)
			goto retry // want `retry site: shape=goto bound=counter delay=fixed jitter=no ctx=none remote`
		}
		return nil, err
	}
	return resp, nil
}

func recursive(url string, retries int) (*http.Response, error) {
	resp, err := http.Get(url)
	if err != nil && retries > 0 {
		time.Sleep(2 * time.Second)
		return recursive(url, retries-1) // want `retry site: shape=recursion bound=counter delay=fixed jitter=no ctx=none remote`
	}
	return resp, err
}

func elapsed(ctx context.Context, url string) error {
	start := time.Now()
	for { // want `retry site: shape=bare bound=elapsed delay=absent jitter=no ctx=none remote`
		resp, err := http.Post(url, "application/json", nil)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if time.Since(start) > 10*time.Second {
			return err
		}
	}
}

func postWithKey(ctx context.Context, c *http.Client, url, key string) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=caller remote req=POST\+key`
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

func newKey() string { return "k" + time.Now().String() }

func postKeyInLoop(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=caller remote req=POST\+key\(minted-in-loop\)`
		req, err := http.NewRequestWithContext(ctx, "POST", url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", newKey())
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return errors.New("gave up")
}

func consume(ctx context.Context, recv func(context.Context) (string, error), handle func(string)) {
	for { // want `retry site: shape=bare consume bound=none delay=fixed jitter=no ctx=caller`
		msg, err := recv(ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		handle(msg)
	}
}

// An accept loop that backs off on temporary errors (net/http's Serve):
// a consume loop whose error branch is a retry.
func serve(ctx context.Context, l interface {
	Accept() (any, error)
}, handle func(any)) error {
	var tempDelay time.Duration
	for { // want `retry site: shape=bare consume bound=none delay=growing jitter=no ctx=unknown`
		c, err := l.Accept()
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			if tempDelay == 0 {
				tempDelay = 5 * time.Millisecond
			} else {
				tempDelay *= 2
			}
			time.Sleep(tempDelay)
			continue
		}
		tempDelay = 0
		if c == nil {
			panic("nil conn")
		}
		go handle(c)
	}
}

// A success branch with its own unrelated if before leaving (net/http's
// Transport.roundTrip) still leaves on success.
func nestedSuccess(ctx context.Context, c *http.Client, req *http.Request, trace func()) (*http.Response, error) {
	for { // want `retry site: shape=bare bound=deadline delay=absent jitter=no ctx=unknown consulted remote`
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		default:
		}
		resp, err := c.Do(req)
		if err == nil {
			if trace != nil {
				trace()
			}
			return resp, nil
		}
	}
}

// An elapsed-time limit enforced by t.Fatal (crypto/x509's hybrid pool test).
func fatalDeadline(t interface{ Fatal(args ...any) }, dial func() error) {
	deadline := time.Now().Add(time.Minute)
	next := time.Second
	for i := 0; ; i++ { // want `retry site: shape=bare bound=elapsed delay=growing jitter=no ctx=unknown`
		if err := dial(); err == nil {
			break
		}
		next = next * time.Duration(i)
		if time.Until(deadline) < next {
			panic("gave up")
		}
		time.Sleep(next)
	}
}

// The counter guards going round (net's lookup tests); the delay is a
// table of rising constants indexed by the attempt: it grows.
func guardedContinue(lookup func() error) error {
	delays := []time.Duration{time.Second, 2 * time.Second}
	attempts := 0
	for { // want `retry site: shape=bare bound=counter delay=growing jitter=no ctx=unknown`
		err := lookup()
		if err == nil {
			return nil
		}
		if attempts < len(delays) {
			time.Sleep(delays[attempts])
			attempts++
			continue
		}
		return err
	}
}

type pooled struct{ c *http.Client }

// A fresh pooled connection per attempt is still a retry of the request:
// the pool is asked for a connection, not drained to the last one.
func pooledRetry(get func() (*pooled, error), req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=unknown remote`
		cn, err := get()
		if err != nil {
			return nil, err
		}
		resp, err := cn.c.Do(req)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// A nil check that returns, not breaks, is a failed precondition, not a
// source running dry.
func pooledNilReturn(get func() *pooled, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=unknown remote`
		cn := get()
		if cn == nil {
			return nil, errors.New("no connection")
		}
		resp, err := cn.c.Do(req)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// Success named by its code (resp.StatusCode == http.StatusOK), an error
// retried: a retry.
func statusOK(c *http.Client, url string) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=unknown remote`
		resp, err := c.Get(url)
		if err == nil && resp.StatusCode == http.StatusOK {
			return resp.Body.Close()
		}
		if err == nil {
			resp.Body.Close()
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return errors.New("gave up")
}

// Rounds over a failover sweep: each round tries every replica again, so
// the rounds retry (the sweep alone would be failover).
func rounds(ctx context.Context, replicas []string, set func(context.Context, string) error) error {
	var lastErr error
	for round := 0; round < 3; round++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=caller`
		for _, r := range replicas {
			err := set(ctx, r)
			if err == nil {
				return nil
			}
			lastErr = err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return lastErr
}

type reconcileResult struct{ Requeue bool }

// A success that leaves only with something more (a controller's requeue):
// the error is still retried.
func requeue(ctx context.Context, reconcile func(context.Context) (reconcileResult, error)) {
	for attempt := 0; attempt < 5; attempt++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=caller consulted`
		res, err := reconcile(ctx)
		if err == nil && !res.Requeue {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(200 * time.Millisecond << attempt):
		}
	}
}

// A cap checked by equality before giving up.
func capEqual(get func() error) error {
	for attempt := 1; ; attempt++ { // want `retry site: shape=bare bound=counter delay=fixed jitter=no ctx=unknown`
		err := get()
		if err == nil {
			return nil
		}
		if attempt == 3 {
			return err
		}
		time.Sleep(time.Second)
	}
}

// The status copied into a local before the body is closed.
func statusCopied(c *http.Client, req *http.Request) error {
	var lastErr error
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown remote`
		resp, err := c.Do(req)
		if err == nil {
			code := resp.StatusCode
			resp.Body.Close()
			if code < 300 {
				return nil
			}
			if code < 500 {
				return errors.New("rejected")
			}
			err = errors.New("server error")
		}
		lastErr = err
		time.Sleep(time.Second)
	}
	return lastErr
}

// A 503 retried by name, other failures given up on: a retry of a failure
// status, though a 2xx test follows.
func retry503(hc *http.Client, url string) (string, error) {
	for attempt := 0; attempt < 3; attempt++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown remote`
		resp, err := hc.Get(url)
		if err != nil {
			return "", err
		}
		if resp.StatusCode == http.StatusServiceUnavailable {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return "", errors.New("rejected")
		}
		return "ok", nil
	}
	return "", errors.New("gave up")
}
