package shapes

import (
	"context"
	"errors"
	"io"
	"time"
)

// Tests of one kind of failure, verdicts beside an error, and attempts
// that differ only in how they run.

var errConflict = errors.New("conflict")

func acquire(ctx context.Context) (bool, error) { return true, nil }

func withAttempt(ctx context.Context, n int) context.Context { return ctx }

// A transaction retried while it loses an optimistic lock: a switch on a
// sentinel error, no test of success on its own.
func transact(ctx context.Context) error {
	for range 5 {
		err := op(ctx) // want `retry site`
		switch err {
		case errConflict:
			continue
		default:
			return err
		}
	}
	return nil
}

// The same with errors.Is.
func transactIs(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := op(ctx) // want `retry site`
		if errors.Is(err, errConflict) {
			continue
		}
		return err
	}
	return nil
}

// A lock taken when its verdict beside the error says so, waiting
// between tries until a time limit.
func lockRoom(ctx context.Context) error {
	start := time.Now()
	for {
		locked, err := acquire(ctx) // want `retry site`
		if err != nil {
			return err
		}
		if locked {
			return nil
		}
		if time.Since(start) > time.Minute {
			return errConflict
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Each attempt runs under a context carrying its number and a longer
// timeout: the same operation, not a different target.
func connectAttempts(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		timeout := time.Second * time.Duration(attempt+1)
		actx, cancel := context.WithTimeout(withAttempt(ctx, attempt), timeout)
		err = op(actx) // want `retry site`
		cancel()
		if err == nil || errors.Is(err, context.Canceled) {
			break
		}
	}
	return err
}

// Look-alike: an iterator whose verdict beside the error says whether
// there is more; it goes on at once.
func drainMore(ctx context.Context) error {
	for {
		more, err := acquire(ctx)
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		_ = send(ctx, "item")
	}
}

// Look-alike: a read loop that ends at EOF (one kind of failure) and goes
// on after every success.
func readAll(ctx context.Context) error {
	for {
		s, err := get(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		_ = s
	}
}

// Look-alike: a read loop that skips one kind of failure and goes on
// after a success too.
func readSkipping(ctx context.Context) error {
	for {
		s, err := get(ctx)
		if errors.Is(err, errConflict) {
			continue
		}
		if err != nil {
			return err
		}
		_ = s
	}
}

type wireError string

func (e wireError) Error() string { return string(e) }

// A sentinel of a concrete error type, declared as a constant.
const errTxFailed = wireError("transaction failed")

// The optimistic transaction again, its sentinel a constant.
func transactConst(ctx context.Context) error {
	for range 5 {
		err := op(ctx) // want `retry site`
		if err == errTxFailed {
			continue
		}
		return err
	}
	return nil
}

func dial(ctx context.Context, addr string) error { return nil }

// Look-alike: a failover whose attempts also get longer timeouts; the
// address advances, so each lap is another operation.
func dialAny(ctx context.Context, addrs []string) error {
	var err error
	for i, addr := range addrs {
		actx, cancel := context.WithTimeout(ctx, time.Second*time.Duration(i+1))
		err = dial(actx, addr)
		cancel()
		if err == nil {
			return nil
		}
	}
	return err
}
