package fixdo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"
)

const attempts = 4

// The plain shape: a counted loop around one call that returns on
// success, waits, and gives up after the loop.
func replaceFetch(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, errors.New("gave up")
}

// An error-only operation: budget.Do.
func replacePing(ctx context.Context, db *sql.DB) error {
	for range 3 { // want `retry loop has no retry budget`
		err := db.PingContext(ctx)
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("database unreachable")
}

// A named bound, no wait, err returned where it
// is nil, a named-type result.
func replaceConn(ctx context.Context, db *sql.DB) (*sql.Conn, error) {
	for range attempts { // want `retry loop has no retry budget`
		conn, err := db.Conn(ctx)
		if nil == err {
			return conn, err
		}
	}
	return nil, fmt.Errorf("no connection after %d attempts", attempts)
}

// Negative: the loop variable sets the delay.
func keepLoopVarUsed(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(i) * time.Second):
		}
	}
	return nil, errors.New("gave up")
}

// Negative: the body does more than call, return and wait.
func keepExtraStatement(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	var lastErr error
	for range 3 { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		lastErr = err
		time.Sleep(time.Second)
	}
	return nil, lastErr
}

// Negative: no context in scope.
func keepNoContext(c *http.Client, url string) (*http.Response, error) {
	for range 3 { // want `retry loop has no retry budget`
		resp, err := c.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

// Negative: more attempts than budget.WithAttempts allows.
func keepTooMany(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 20; i++ { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

// Negative: the results do not end in error (and no guard either).
func keepNoErrorResult(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, bool) {
	for range 3 { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, true
		}
		time.Sleep(time.Second)
	}
	return nil, false
}

// Negative: the final error is a local that would be left unused.
func keepLocalError(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	giveUp := errors.New("gave up")
	for range 3 { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, giveUp
}

// Negative: something happens between the loop and the return.
func keepWorkAfter(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for range 3 { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	fmt.Println("giving up")
	return nil, errors.New("gave up")
}

// Negative: the wait has an effect of its own.
func keepWaitEffect(ctx context.Context, c *http.Client, req *http.Request, next func() time.Duration) (*http.Response, error) {
	for range 3 { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		time.Sleep(next())
	}
	return nil, errors.New("gave up")
}

// Negative: the call assigns variables declared before the loop.
func keepAssigned(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for range 3 { // want `retry loop has no retry budget`
		resp, err = c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

// A function literal, an error-only call, time.Sleep with a computed
// delay free of effects.
var replaceInLiteral = func(ctx context.Context, db *sql.DB) error {
	for i := 0; i < 2; i++ { // want `retry loop has no retry budget`
		err := db.PingContext(ctx)
		if err == nil {
			return err
		}
		time.Sleep(time.Duration(50) * time.Millisecond)
	}
	return fmt.Errorf("ping: gave up")
}

// Negative: the cancellation branch does more than give up.
func keepDoneWork(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for range 3 { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			fmt.Println("canceled")
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, errors.New("gave up")
}

// Negative: the context name is shadowed by a non-context at the loop.
func keepContextShadowed(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	context := "shadow"
	_ = context
	for range 3 { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}
