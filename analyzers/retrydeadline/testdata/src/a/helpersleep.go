package a

import (
	"context"
	"database/sql"
	"time"
)

// A retry helper that sleeps with time.Sleep and takes no context: a
// caller with a context in scope sleeps through its cancellation.

func retryBlind(attempts int, delay time.Duration, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		time.Sleep(delay)
	}
	return err
}

func pingBlind(ctx context.Context, db *sql.DB) error {
	return retryBlind(3, time.Second, func() error { return db.PingContext(ctx) }) // want `retry helper sleeps with time.Sleep while ctx is in scope and not handed to it`
}

// A poll helper sleeping blind, handed a condition that swallows the
// failure: the same.
func pollBlind(tries int, cond func() (bool, error)) error {
	for i := 0; i < tries; i++ {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

func pingPolled(ctx context.Context, db *sql.DB) error {
	return pollBlind(3, func() (bool, error) { // want `retry helper sleeps with time.Sleep while ctx is in scope and not handed to it`
		return db.PingContext(ctx) == nil, nil
	})
}

// Look-alike: the helper is handed the context and waits on it.
func retryHanded(ctx context.Context, attempts int, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

func pingHanded(ctx context.Context, db *sql.DB) error {
	return retryHanded(ctx, 3, func() error { return db.PingContext(ctx) })
}

// Look-alike: no context in scope at the call: nothing is ignored (each
// attempt has a timeout of its own).
func pingNoCtx(db *sql.DB) error {
	return retryBlind(3, time.Second, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		return db.PingContext(ctx)
	})
}

// The operation is local (a directory made again), but both clauses
// apply to any retry site (SPEC, settled cases): the helper sleeps
// through ctx for seconds.
func mkdirRetried(ctx context.Context, dir string) error {
	return retryBlind(3, time.Second, func() error { return mkdir(dir) }) // want `retry helper sleeps with time.Sleep while ctx is in scope and not handed to it`
}

// Look-alike: work not known remote, but the helper is handed the
// context it stops on.
func storeHanded(ctx context.Context, s store) error {
	return retryHanded(ctx, 3, func() error { return s.Put(ctx) })
}

// Work not known remote (an interface of this package): the helper
// still sleeps through ctx.
func storeBlind(ctx context.Context, s store) error {
	return retryBlind(3, time.Second, func() error { return s.Put(ctx) }) // want `retry helper sleeps with time.Sleep while ctx is in scope and not handed to it`
}

type store interface{ Put(context.Context) error }

func mkdir(string) error { return nil }

// A blind helper's call inside a retry loop of its own: each is reported
// at its own wait.
func storeTwice(ctx context.Context, s store) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = retryBlind(2, time.Second, func() error { return s.Put(ctx) }); err == nil { // want `retry helper sleeps with time.Sleep while ctx is in scope and not handed to it`
			return nil
		}
		time.Sleep(time.Second) // want `retry sleeps while ctx is in scope and never checks it`
	}
	return err
}
