// Package helper holds retry helpers and the wrappers around them: each
// summary is pinned as a fact, each call that hands an operation of its
// own to a retrying function as a helper call.
package helper

import (
	"context"
	"errors"
	"time"
)

var errBusy = errors.New("busy")

func send(ctx context.Context) error { return nil }

// Retry is a generic helper: its loop runs op again after it failed.
func Retry(attempts int, op func() error) error { // want `retries params \[1\]`
	for i := 0; i < attempts; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errBusy
}

// Wrap forwards its operation: a helper too.
func Wrap(op func() error) error { // want `retries params \[0\]`
	return Retry(3, op)
}

// WrapCtx wraps its operation in a closure that hands it the context.
func WrapCtx(ctx context.Context, op func(context.Context) error) error { // want `retries params \[1\]`
	return Wrap(func() error { return op(ctx) })
}

// Client.Do is a method wrapper: the receiver does not count.
type Client struct{ attempts int }

func (c *Client) Do(ctx context.Context, op func(context.Context) error) error { // want `retries params \[2\]`
	return Retry(c.attempts, func() error { return op(ctx) })
}

// Once calls its operation once: not a helper.
func Once(op func() error) error {
	return op()
}

// Each runs each operation once: a collection, not a helper.
func Each(ops []func() error) error {
	for _, op := range ops {
		if err := op(); err == nil {
			return nil
		}
	}
	return errBusy
}

// Logged calls its operation and logs; it hands Retry an operation of its
// own, not its parameter.
func Logged(ctx context.Context, op func() error) error {
	_ = op()
	return Retry(2, func() error { return send(ctx) }) // want `helper call deadline=caller`
}

// Caller hands a helper an operation of its own.
func Caller(ctx context.Context) error {
	return Wrap(func() error { return send(ctx) }) // want `helper call deadline=caller`
}

// Upload hands Retry an attempt that rewinds the body with getBody and
// returns the send's outcome: getBody is not the operation retried, so
// Upload is no wrapper; the attempt is an operation of its own.
func Upload(ctx context.Context, getBody func() error) error {
	return Retry(3, func() error { // want `helper call`
		if err := getBody(); err != nil {
			return err
		}
		return send(ctx)
	})
}

// WrapLogged wraps its operation's error before returning it: a wrapper.
func WrapLogged(op func() error) error { // want `retries params \[0\]`
	return Retry(3, func() error {
		if err := op(); err != nil {
			return errors.Join(errBusy, err)
		}
		return nil
	})
}

// WrapNamed's closure returns its named result, set once from the
// operation: a wrapper.
func WrapNamed(op func() error) error { // want `retries params \[0\]`
	return Retry(3, func() (err error) {
		err = op()
		return
	})
}

// Each attempt runs under a context made here with no deadline.
func Detached() error {
	return Retry(3, func() error { return send(context.Background()) }) // want `helper call deadline=none`
}

// A named operation of the package whose body makes its own timeout.
func Timed() error {
	return Retry(3, timed) // want `helper call deadline=set`
}

func timed() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for range 1 { // a body the model keeps
	}
	return send(ctx)
}

// Look-alike: the operation's context is the one the helper hands it.
func Handed(ctx context.Context) error {
	return WrapCtx(ctx, func(ctx context.Context) error { return send(ctx) }) // want `helper call deadline=unknown`
}
