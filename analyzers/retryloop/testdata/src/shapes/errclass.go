package shapes

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"time"
)

// An error classifier decides the retry: what it says of a nil error is
// read from its body, so a success leaves the loop.

type classDB struct {
	db     *sql.DB
	policy interface{ Retry(error) bool }
}

var errBusy = errors.New("busy")

func (c *classDB) shouldRetry(err error) bool {
	switch err {
	case io.EOF, errBusy:
		return true
	case nil, context.Canceled:
		return false
	}
	return errors.Is(err, io.ErrUnexpectedEOF)
}

func (c *classDB) exec(ctx context.Context, q string) error {
	var lastErr error
	for attempt := 0; attempt <= 3; attempt++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=caller remote attempts=4$`
		if attempt > 0 {
			time.Sleep(time.Second)
		}
		_, lastErr = c.db.ExecContext(ctx, q)
		if !c.shouldRetry(lastErr) {
			break
		}
	}
	return lastErr
}

func temporary(err error) bool {
	if err == nil {
		return false
	}
	return !errors.Is(err, context.Canceled)
}

func (c *classDB) ping(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=caller remote attempts=3$`
		err = c.db.PingContext(ctx)
		if !temporary(err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// Look-alike: a classifier that holds for nil keeps the loop going on
// success: a poll, not a retry.
func keepWatching(err error) bool {
	switch err {
	case nil:
		return true
	}
	return false
}

func (c *classDB) watch(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		err := c.db.PingContext(ctx)
		if !keepWatching(err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return nil
}

// Look-alike: the classifier asks an interface: what it says of a
// success is unknown, no decision.
func (c *classDB) retryable(err error) bool { return c.policy.Retry(err) }

func (c *classDB) query(ctx context.Context, q string) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = c.db.ExecContext(ctx, q)
		if !c.retryable(err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}
