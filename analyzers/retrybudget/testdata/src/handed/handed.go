// Package handed holds generic retry helpers with neither an attempt cap
// nor a deadline: a helper is judged on what it shows, whatever work its
// callers hand it, unless every call in sight hands it local work.
package handed

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"sync/atomic"
	"time"
)

var errRetryable = errors.New("retryable")

// Execute is exported and no call in this package hands it work: it
// retries until the work stops failing.
func Execute(fn func() error) (err error) {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		err = fn()
		if err == nil || !errors.Is(err, errRetryable) {
			return err
		}
	}
}

// Look-alikes.

// Capped: the budget is judged at the calls that hand it remote work
// (package helpers), not here.
func Capped(fn func() error) (err error) {
	for i := 0; i < 3; i++ {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

// Watching a context is a stop decision.
func UntilDone(ctx context.Context, fn func(context.Context) error) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(ctx); err == nil {
			return nil
		}
	}
}

// spin is only handed local work here: a compare-and-swap loop.
func spin(try func() bool) {
	for !try() {
	}
}

func spinErr(try func() error) {
	for try() != nil {
	}
}

var n atomic.Int64

func incr() {
	spin(func() bool {
		old := n.Load()
		return n.CompareAndSwap(old, old+1)
	})
	spinErr(func() error {
		if old := n.Load(); !n.CompareAndSwap(old, old*2) {
			return errRetryable
		}
		return nil
	})
}

// A helper whose loop calls a hook through a function value between
// attempts shows no more than that something runs there.
func WithHook(fn func() error, between func()) {
	for fn() != nil {
		between()
	}
}

// A helper whose retry decision is a method of its own state (it may
// count the attempts there) is not known to be unbounded; handed remote
// work by its calls here, it still has no budget: one finding, at its
// loop.
type stream struct {
	hc       *http.Client
	attempts int
}

func (s *stream) retryLocked(err error) error {
	if s.attempts++; s.attempts > 3 {
		return err
	}
	return nil
}

func (s *stream) withRetry(op func() error) error {
	for { // want `retry helper has no retry budget \(2 calls pass it a remote call\)`
		err := op()
		if err == nil {
			return nil
		}
		if err := s.retryLocked(err); err != nil {
			return err
		}
	}
}

func (s *stream) header(url string) error {
	return s.withRetry(func() error {
		resp, err := s.hc.Head(url)
		if err == nil {
			resp.Body.Close()
		}
		return err
	})
}

func (s *stream) body(url string) error {
	return s.withRetry(func() error {
		resp, err := s.hc.Get(url)
		if err == nil {
			resp.Body.Close()
		}
		return err
	})
}

// A helper that retries the methods of a value it is given, handed a
// remote one by a call here: one finding, at its loop.
type Tx interface {
	Exec(ctx context.Context, q string) error
}

func execInTx(ctx context.Context, tx Tx) (err error) {
	for i := 0; i < 3; i++ { // want `retry helper has no retry budget \(1 call passes it a remote call\)`
		if err = tx.Exec(ctx, "UPDATE t SET n = n + 1"); err == nil {
			return nil
		}
	}
	return err
}

type sqlTx struct{ tx *sql.Tx }

func (t sqlTx) Exec(ctx context.Context, q string) error {
	_, err := t.tx.ExecContext(ctx, q)
	return err
}

func bumpSQL(ctx context.Context, tx *sql.Tx) error {
	return execInTx(ctx, sqlTx{tx})
}

// Look-alike: handed only an in-memory value here.
type memTx struct{ n int }

func (t *memTx) Exec(context.Context, string) error { t.n++; return nil }

func memRetry(ctx context.Context, tx Tx) (err error) {
	for i := 0; i < 3; i++ {
		if err = tx.Exec(ctx, "UPDATE"); err == nil {
			return nil
		}
	}
	return err
}

func bumpMem(ctx context.Context) error { return memRetry(ctx, &memTx{}) }

// untilDone sleeps through any cancellation between attempts and never
// stops: its unbounded loop is reported here, once.
func untilDone(fn func() error) {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		if fn() == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

type saver interface{ Save(context.Context) error }

// Look-alike: a call handing it work not known remote, with a context in
// scope, is a retry site for retrydeadline (the helper sleeps through
// ctx), but its bounds are the helper's, reported at its loop above, not
// again at each call.
func saveAll(ctx context.Context, s saver) {
	untilDone(func() error { return s.Save(ctx) })
}
