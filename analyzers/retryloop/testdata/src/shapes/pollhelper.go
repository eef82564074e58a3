package shapes

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// A poll helper calls a condition until it says done; a call of it
// retries only when the condition turns a failed remote call into "not
// yet" (return false, nil).

func pollEvery(interval time.Duration, tries int, cond func() (bool, error)) error {
	for i := 0; i < tries; i++ {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(interval)
	}
	return fmt.Errorf("still not done after %d tries", tries)
}

// pollFor hands its condition on to the poller.
func pollFor(timeout time.Duration, cond func() (bool, error)) error {
	return pollEvery(time.Second, int(timeout/time.Second), cond)
}

func connectDB(ctx context.Context, db *sql.DB) error {
	return pollEvery(time.Second, 5, func() (bool, error) { // want `retry site: shape=helper bound=unknown delay=unknown jitter=no ctx=caller remote$`
		if err := db.PingContext(ctx); err != nil {
			return false, nil // not up yet: try again
		}
		return true, nil
	})
}

func connectDBFor(ctx context.Context, db *sql.DB) error {
	return pollFor(time.Minute, func() (bool, error) { // want `retry site: shape=helper bound=unknown delay=unknown jitter=no ctx=caller remote$`
		err := db.PingContext(ctx)
		return err == nil, nil
	})
}

// Look-alike: the condition returns its failures; it waits for a state
// the server reports: polling, not a retry.
func awaitReady(ctx context.Context, db *sql.DB) error {
	return pollEvery(time.Second, 5, func() (bool, error) {
		var state string
		if err := db.QueryRowContext(ctx, "select state from jobs").Scan(&state); err != nil {
			return false, err
		}
		return state == "ready", nil
	})
}

// A vendored wait.ExponentialBackoff: the condition in an if's init.
func backoffPoll(steps int, condition func() (bool, error)) error {
	for steps > 0 {
		if ok, err := condition(); err != nil || ok {
			return err
		}
		steps--
		time.Sleep(time.Second)
	}
	return fmt.Errorf("timed out waiting for the condition")
}

// retryOp retries f through the poller: its condition turns a failure
// the predicate calls retryable into "not yet".
func retryOp(f func() error, retryable func(error) bool) (err error) {
	condition := func() (bool, error) {
		err = f()
		if retryable(err) {
			return false, nil
		}
		return true, err
	}
	backoffPoll(3, condition)
	return
}

func pingRetried(ctx context.Context, db *sql.DB) error {
	return retryOp(func() error { return db.PingContext(ctx) }, func(err error) bool { return err != nil }) // want `retry site: shape=helper bound=unknown delay=unknown jitter=no ctx=caller remote$`
}

// Look-alike: the condition hands every failure back: a single attempt.
func onceOp(f func() error) (err error) {
	condition := func() (bool, error) {
		err = f()
		return true, err
	}
	backoffPoll(3, condition)
	return
}

func pingOnce2(ctx context.Context, db *sql.DB) error {
	return onceOp(func() error { return db.PingContext(ctx) })
}
