package a

import (
	"context"
	"database/sql"
	"time"
)

// A call that somewhere waits on a context of its own, handed none of the
// caller's, does not consult the caller's: the loop sleeps blind.
func openCache(db *sql.DB) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(10 * time.Millisecond):
	}
	return db.Ping()
}

func newWorker(db *sql.DB) (context.CancelFunc, error) {
	ctx, cancel := context.WithCancel(context.Background())
	var err error
	for retry := 10; retry > 0; retry-- { // want `retry loop runs without a deadline: its attempts use no context and no client timeout`
		if err = openCache(db); err == nil {
			break
		}
		time.Sleep(time.Second) // want `retry sleeps while ctx is in scope and never checks it`
	}
	if err != nil {
		cancel()
		return nil, err
	}
	go func() { <-ctx.Done() }()
	return cancel, nil
}

// Look-alike: handed the context, the call's wait observes it.
func openCacheCtx(ctx context.Context, db *sql.DB) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(10 * time.Millisecond):
	}
	return db.PingContext(ctx)
}

func newWorkerCtx(ctx context.Context, db *sql.DB) error {
	var err error
	for retry := 10; retry > 0; retry-- {
		if err = openCacheCtx(ctx, db); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
