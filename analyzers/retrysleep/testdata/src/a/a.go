package a

import (
	"context"
	"errors"
	"math/rand"
	"net/http"
	"time"
)

func fixed(url string) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(2 * time.Second) // want `retry waits a fixed delay: clients that failed together retry in lockstep`
	}
	return nil, errors.New("gave up")
}

const retryDelay = 500 * time.Millisecond

func fixedConst(op func() error) error {
	for i := 0; i < 3; i++ {
		if err := op(); err == nil {
			return nil
		}
		<-time.After(retryDelay) // want `retry waits a fixed delay`
	}
	return errors.New("gave up")
}

func fixedLocal(op func() error) error {
	wait := time.Second
	for i := 0; i < 3; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(wait) // want `retry waits a fixed delay`
	}
	return errors.New("gave up")
}

func immediate(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop retries at once: a failing dependency is hit again immediately`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// A constant plus random jitter is fine.
func jittered(op func() error) error {
	for i := 0; i < 3; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second + time.Duration(rand.Int63n(int64(time.Second))))
	}
	return errors.New("gave up")
}

// Immediate retry of local work: the one call of this helper hands it a
// local step (a helper no call hands work to is judged on what it shows,
// see package handed).
func localCAS(try func() error) error {
	var err error
	for i := 0; i < 10; i++ {
		if err = try(); err == nil {
			return nil
		}
	}
	return err
}

var casState int

func casStep() error {
	if casState != 0 {
		return errors.New("busy")
	}
	casState = 1
	return nil
}

func casOnce() error { return localCAS(casStep) }

// A delay from a parameter: judged at the call site, silent here.
func withDelay(op func() error, d time.Duration) error {
	for i := 0; i < 3; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(d)
	}
	return errors.New("gave up")
}
