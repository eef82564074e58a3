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
