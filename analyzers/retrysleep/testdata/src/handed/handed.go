// Package handed holds generic retry helpers that retry at once: a helper
// is judged on what it shows (no wait), whatever work its callers hand it,
// unless every call in sight hands it local work.
package handed

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net/http"
	"sync/atomic"
)

var errRetryable = errors.New("retryable")

// Execute is exported and no call in this package hands it work: it
// waits for none of its callers.
func Execute(fn func() error) (err error) {
	for { // want `retry loop retries at once`
		err = fn()
		if err == nil || !errors.Is(err, errRetryable) {
			return err
		}
	}
}

// TxFunc is the work ExecuteCtx is handed.
type TxFunc func(context.Context, ...any) error

// ExecuteCtx is capped and watches its context, and still retries at once.
func ExecuteCtx(ctx context.Context, fn TxFunc, args ...any) (err error) {
	for n := 0; n <= 5; n++ { // want `retry loop retries at once`
		if err = ctx.Err(); err != nil {
			return err
		}
		err = fn(ctx, args...)
		if err == nil || !errors.Is(err, errRetryable) {
			return err
		}
	}
	return err
}

// runTx is handed remote work by a call of this package.
func runTx(fn func() error) (err error) {
	for i := 0; i < 3; i++ { // want `retry loop retries at once`
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

func insert(ctx context.Context, db *sql.DB) error {
	return runTx(func() error {
		_, err := db.ExecContext(ctx, "INSERT INTO t VALUES (1)")
		return err
	})
}

// inTx is handed work the model cannot see into by its one call here (a
// function value of that caller's caller): whether its work is remote is
// unknown, but its delay is what retrysleep judges, and it waits nowhere
// (SPEC, "Retries of local work", settled 2026-12-06).
func inTx(fn func() error) (err error) {
	for i := 0; i < 3; i++ { // want `retry loop retries at once`
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

func ExecuteTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	return inTx(func() error { return fn(tx) })
}

// Look-alikes.

// casLoop is only handed local work here: a compare-and-swap retried at
// once is no storm.
func casLoop(try func() error) (err error) {
	for i := 0; i < 10; i++ {
		if err = try(); err == nil {
			return nil
		}
	}
	return err
}

var counter atomic.Int64

func bump() error {
	return casLoop(func() error {
		old := counter.Load()
		if !counter.CompareAndSwap(old, old+1) {
			return errRetryable
		}
		return nil
	})
}

func swap() bool {
	return casLoop(step) == nil
}

func step() error {
	if !counter.CompareAndSwap(0, 1) {
		return errRetryable
	}
	return nil
}

// A helper that waits a delay it is given is judged at its calls.
func withWait(fn func() error, wait func()) (err error) {
	for i := 0; i < 3; i++ {
		if err = fn(); err == nil {
			return nil
		}
		wait()
	}
	return err
}

// A loop retrying a function-valued field, no parameter: the work is
// unseen and nobody hands it, so it is unknown; but its delay is what
// retrysleep judges, and the loop surely waits nowhere (SPEC, "Retries
// of local work", settled 2026-12-06).
type conn struct {
	dial func() error
}

func (c *conn) connect() (err error) {
	for i := 0; i < 3; i++ { // want `retry loop retries at once`
		if err = c.dial(); err == nil {
			return nil
		}
	}
	return err
}

// A helper whose caller hands it a remote call with its own wait is a
// different matter: the helper waits.
func get(url string) (*http.Response, error) {
	var resp *http.Response
	err := withWait(func() error {
		var err error
		resp, err = http.Get(url)
		return err
	}, func() {})
	return resp, err
}

// A retry on driver.ErrBadConn outside the standard library is a retry
// (database/sql already retries it; only its own loop is a failover).
type pool struct{ db *sql.DB }

func (p *pool) retry(fn func(fresh bool) error) error {
	for i := 0; i < 2; i++ { // want `retry loop retries at once`
		err := fn(false)
		if err == nil || !errors.Is(err, driver.ErrBadConn) {
			return err
		}
	}
	return fn(true)
}

func (p *pool) ping(ctx context.Context) error {
	return p.retry(func(bool) error { return p.db.PingContext(ctx) })
}

// A helper that retries the methods of a value it is given: judged by
// what the calls in its package hand it.
type Tx interface {
	Exec(ctx context.Context, q string) error
}

func execInTx(ctx context.Context, tx Tx, fn func() error) (err error) {
	for i := 0; i < 3; i++ { // want `retry loop retries at once`
		err = fn()
		if err == nil {
			// A failed commit is retried too.
			err = tx.Exec(ctx, "RELEASE SAVEPOINT s")
		}
		if err == nil || !errors.Is(err, errRetryable) {
			return err
		}
		if rerr := tx.Exec(ctx, "ROLLBACK TO SAVEPOINT s"); rerr != nil {
			return rerr
		}
	}
	return err
}

type sqlTx struct{ tx *sql.Tx }

func (t sqlTx) Exec(ctx context.Context, q string) error {
	_, err := t.tx.ExecContext(ctx, q)
	return err
}

func runSQL(ctx context.Context, tx *sql.Tx, fn func(*sql.Tx) error) error {
	return execInTx(ctx, sqlTx{tx}, func() error { return fn(tx) })
}

// Look-alikes: the same shape handed only an in-memory value here, and
// one no call in sight hands a value.
type memTx struct{ log []string }

func (t *memTx) Exec(_ context.Context, q string) error {
	t.log = append(t.log, q)
	return nil
}

func memRetry(ctx context.Context, tx Tx) (err error) {
	for i := 0; i < 3; i++ {
		if err = tx.Exec(ctx, "UPDATE"); err == nil {
			return nil
		}
	}
	return err
}

func runMem(ctx context.Context) error { return memRetry(ctx, &memTx{}) }

// Unknown work (a Tx no call in sight hands it): its missing delay is
// judged all the same.
func ExecAll(ctx context.Context, tx Tx) (err error) {
	for i := 0; i < 3; i++ { // want `retry loop retries at once`
		if err = tx.Exec(ctx, "UPDATE"); err == nil {
			return nil
		}
	}
	return err
}
