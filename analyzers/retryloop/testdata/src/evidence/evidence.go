// Package evidence pins what the model records of each property a check
// judges: present, absent or unknown, and why.
package evidence

import (
	"bytes"
	"context"
	"errors"
	"math/rand"
	"net/http"
	"time"
)

type store interface{ Put(key string) error }

// A remote call, a fixed wait, a cap, no budget, no stop.
func remoteFixed(hc *http.Client, url string) error {
	for i := 0; i < 3; i++ { // want `evidence wait=present delay=fixed jitter=absent remote=present budget=absent cap=present stop=absent deadline=unknown\(a context the model cannot trace\) cancel=unknown\(no context or stop channel in scope\)$`
		resp, err := hc.Get(url)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A function value: remoteness unknown; a random wait; a context consulted.
func funcValue(ctx context.Context, op func() error) error {
	for { // want `evidence wait=present delay=unknown jitter=present remote=unknown\(a function value\) budget=absent cap=absent stop=present deadline=unknown\(a context the model cannot trace\) cancel=present handed=unknown\(no call hands it work in sight\)$`
		err := op()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int63n(int64(time.Second)))):
		}
	}
}

// An interface method retried at once: remoteness unknown, no wait.
func ifaceAtOnce(s store, key string) error {
	var err error
	for i := 0; i < 3; i++ { // want `evidence wait=absent delay=absent jitter=absent remote=unknown\(an interface method\) budget=absent cap=present stop=absent deadline=unknown\(a context the model cannot trace\) cancel=unknown\(no context or stop channel in scope\) handed=unknown\(no call hands it a value in sight\)$`
		if err = s.Put(key); err == nil {
			return nil
		}
	}
	return err
}

// A delay the model cannot judge: jitter unknown, not absent.
func opaqueDelay(op func() error, next func(int) time.Duration) error {
	for i := 0; i < 3; i++ { // want `evidence wait=present delay=unknown jitter=unknown\(a delay the model cannot judge\) remote=unknown\(a function value\) budget=absent cap=present stop=absent deadline=unknown\(a context the model cannot trace\) cancel=unknown\(no context or stop channel in scope\) handed=unknown\(no call hands it work in sight\)$`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(next(i))
	}
	return errors.New("gave up")
}

// Local work, seen: remoteness absent.
func local(parse func(string) (int, error), s string) (int, error) {
	var err error
	for i := 0; i < 3; i++ { // want `evidence wait=present delay=growing jitter=absent remote=absent budget=absent cap=present stop=absent deadline=unknown\(a context the model cannot trace\) cancel=unknown\(no context or stop channel in scope\)$`
		n, e := parseLocal(s)
		if e == nil {
			return n, nil
		}
		err = e
		time.Sleep(time.Duration(i) * time.Second)
	}
	_ = parse
	return 0, err
}

func parseLocal(s string) (int, error) {
	if s == "" {
		return 0, errors.New("empty")
	}
	return len(s), nil
}

// A stop channel alone (closed at shutdown) is no deadline.
func stopOnly(stop <-chan struct{}, hc *http.Client, url string) {
	for { // want `evidence wait=present delay=fixed jitter=absent remote=present budget=absent cap=absent stop=absent deadline=unknown\(a context the model cannot trace\) cancel=present$`
		resp, err := hc.Get(url)
		if err == nil {
			resp.Body.Close()
			return
		}
		select {
		case <-stop:
			return
		case <-time.After(time.Second):
		}
	}
}

// The default client under no context: no deadline; a sleep that never
// looks at nothing in scope.
func defaultClient(url string) error {
	for i := 0; i < 3; i++ { // want `evidence wait=present delay=fixed jitter=absent remote=present budget=absent cap=present stop=absent deadline=absent cancel=unknown\(no context or stop channel in scope\)$`
		resp, err := http.Get(url)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The caller's context, handed to each attempt: its deadline bounds the
// attempts (a stop), but the sleep never checks it.
func callerCtx(ctx context.Context, hc *http.Client, url string) error {
	for i := 0; i < 3; i++ { // want `evidence wait=present delay=fixed jitter=absent remote=present budget=absent cap=present stop=present deadline=present cancel=absent; request resent=present write=absent key=absent fresh=absent$`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Requests: a POST without a key, one with a key minted on every attempt,
// and one whose method is a parameter.
func post(ctx context.Context, hc *http.Client, url string, body []byte) error {
	for i := 0; i < 3; i++ { // want `evidence .*; request resent=present write=present key=absent fresh=absent$`
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func postFreshKey(ctx context.Context, hc *http.Client, url string, body []byte) error {
	for i := 0; i < 3; i++ { // want `evidence .*; request resent=present write=present key=present fresh=present$`
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", newKey())
		resp, err := hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func newKey() string { return time.Now().String() }

func anyMethod(ctx context.Context, hc *http.Client, method, url string) error {
	for i := 0; i < 3; i++ { // want `evidence .*; request resent=present write=unknown\(a method that is no constant\) key=absent fresh=absent$`
		req, err := http.NewRequestWithContext(ctx, method, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A POST sent beside the retried operation, its outcome discarded: not
// re-sent by the retry.
func notifyBeside(ctx context.Context, hc *http.Client, op func() error, url string) error {
	for i := 0; i < 3; i++ { // want `evidence .*; request resent=absent write=present key=absent fresh=absent$`
		err := op()
		if err == nil {
			return nil
		}
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		if rerr != nil {
			return rerr
		}
		_, _ = hc.Do(req)
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A generic helper judged by the work its calls here hand it: remote work
// from one call makes it present, at that call.
func atOnce(op func() error) (err error) {
	for i := 0; i < 3; i++ { // want `evidence wait=absent delay=absent jitter=absent remote=unknown\(a function value\) budget=absent cap=present stop=absent deadline=unknown\(a context the model cannot trace\) cancel=unknown\(no context or stop channel in scope\) handed=present$`
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

func getOnce(hc *http.Client, url string) error {
	return atOnce(func() error { // want `evidence wait=present delay=unknown jitter=unknown\(a delay the model cannot judge\) remote=present budget=absent cap=present stop=present deadline=unknown\(a context the model cannot trace\) cancel=present$`
		resp, err := hc.Get(url)
		if err == nil {
			resp.Body.Close()
		}
		return err
	})
}

// Only local work handed to it here: absent, not printed.
func spinOnce(op func() error) (err error) {
	for i := 0; i < 3; i++ { // want `evidence wait=absent delay=absent jitter=absent remote=unknown\(a function value\) budget=absent cap=present stop=absent deadline=unknown\(a context the model cannot trace\) cancel=unknown\(no context or stop channel in scope\)$`
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

var spun int

func spin() error {
	return spinOnce(func() error {
		if spun++; spun < 2 {
			return errors.New("again")
		}
		return nil
	})
}
