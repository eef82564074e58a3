package a

import (
	"context"
	"database/sql"
	"time"
)

// Retry helpers whose wait sleeps through cancellation without being
// time.Sleep (SPEC, "Uncancellable waits"): a receive from time.After,
// or from a timer's channel outside a select, in a helper that takes no
// context.

func retryAfter(attempts int, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		<-time.After(2 * time.Second)
	}
	return err
}

func retryTimer(attempts int, fn func() error) error {
	var err error
	t := time.NewTimer(0)
	for i := 0; i < attempts; i++ {
		<-t.C
		if err = fn(); err == nil {
			return nil
		}
		t.Reset(time.Second)
	}
	return err
}

// Look-alike: the helper waits in a select that offers the context it
// is handed.
func retryAfterCtx(ctx context.Context, attempts int, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
	return err
}

func pingAfter(ctx context.Context, db *sql.DB) error {
	return retryAfter(3, func() error { return db.PingContext(ctx) }) // want `retry helper waits on time.After while ctx is in scope and not handed to it`
}

func pingTimer(ctx context.Context, db *sql.DB) error {
	return retryTimer(3, func() error { return db.PingContext(ctx) }) // want `retry helper waits on a timer's channel while ctx is in scope and not handed to it`
}

// Look-alike: handed the context, the helper stops waiting on it.
func pingAfterCtx(ctx context.Context, db *sql.DB) error {
	return retryAfterCtx(ctx, 3, func() error { return db.PingContext(ctx) })
}

// Look-alike: no context or stop channel in scope at the call.
func pingAfterNoCtx(db *sql.DB) error {
	return retryAfter(3, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		return db.PingContext(ctx)
	})
}

// No context in scope, so nothing to sleep through; but db.Ping runs
// under no deadline (clause 1).
func pingAfterOwn(db *sql.DB) error {
	return retryTimer(3, func() error { return db.Ping() }) // want `retry helper call runs without a deadline`
}

// A poll helper waiting on time.After, handed a condition that swallows
// the failure: it sleeps through cancellation as a loop helper does.
func pollAfter(tries int, cond func() (bool, error)) error {
	for i := 0; i < tries; i++ {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		<-time.After(time.Second)
	}
	return nil
}

func pingPolledAfter(ctx context.Context, db *sql.DB) error {
	return pollAfter(3, func() (bool, error) { // want `retry helper waits on time.After while ctx is in scope and not handed to it`
		return db.PingContext(ctx) == nil, nil
	})
}

// A poll helper waiting on a timer's channel: the same.
func pollTimer(tries int, cond func() (bool, error)) error {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	for i := 0; i < tries; i++ {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		<-t.C
		t.Reset(time.Second)
	}
	return nil
}

func pingPolledTimer(ctx context.Context, db *sql.DB) error {
	return pollTimer(3, func() (bool, error) { // want `retry helper waits on a timer's channel while ctx is in scope and not handed to it`
		return db.PingContext(ctx) == nil, nil
	})
}

// Look-alike: a poll helper whose time.After is raced against its own
// stop channel in a select.
func pollSelect(stop <-chan struct{}, tries int, cond func() (bool, error)) error {
	for i := 0; i < tries; i++ {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-stop:
			return nil
		case <-time.After(time.Second):
		}
	}
	return nil
}

func pingPolledSelect(ctx context.Context, stop <-chan struct{}, db *sql.DB) error {
	return pollSelect(stop, 3, func() (bool, error) {
		return db.PingContext(ctx) == nil, nil
	})
}

// Look-alike: the same helper waiting on time.After, called with no
// context in scope: nothing to sleep through (its attempts have no
// deadline, the other clause).
func pingPolledNoCtx(db *sql.DB) error {
	return pollAfter(3, func() (bool, error) { // want `retry helper call runs without a deadline`
		return db.Ping() == nil, nil
	})
}
