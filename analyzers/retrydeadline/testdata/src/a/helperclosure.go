package a

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// retryWorker calls f until it reports done, fails, or the attempts that
// fit in timeout at interval run out: a cap, not a deadline, and it is
// handed no context (the postgres-operator retryutil shape).
func retryWorker(interval, timeout time.Duration, f func() (bool, error)) error {
	max := int(timeout / interval)
	for i := 0; ; i++ {
		ok, err := f()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if i+1 == max {
			break
		}
		time.Sleep(interval)
	}
	return fmt.Errorf("still failing after %d retries", max)
}

var errMissing = fmt.Errorf("missing")

// The attempts run under context.TODO() made in the literal: one hung
// query blocks the retries forever.
func secretTODO(db *sql.DB, q string) error {
	return retryWorker(time.Second, time.Minute, func() (bool, error) { // want `retry helper call runs without a deadline: its attempts run under a context with no deadline`
		_, err := db.QueryContext(context.TODO(), q)
		if err != nil {
			if err == errMissing {
				return false, nil
			}
			return false, err
		}
		return true, nil
	})
}

// Look-alikes: the caller's context, a per-attempt timeout, a context
// derived with a timeout outside the literal, a local call under TODO.
func secretCaller(ctx context.Context, db *sql.DB, q string) error {
	// The helper sleeps blind while ctx is in scope: that finding stands.
	return retryWorker(time.Second, time.Minute, func() (bool, error) { // want `retry helper sleeps with time.Sleep while ctx is in scope and not handed to it`
		_, err := db.QueryContext(ctx, q)
		if err == errMissing {
			return false, nil
		}
		return err == nil, err
	})
}

func secretPerAttempt(db *sql.DB, q string) error {
	return retryWorker(time.Second, time.Minute, func() (bool, error) {
		ctx, cancel := context.WithTimeout(context.TODO(), time.Second)
		defer cancel()
		_, err := db.QueryContext(ctx, q)
		if err == errMissing {
			return false, nil
		}
		return err == nil, err
	})
}

func secretTimeout(db *sql.DB, q string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return retryWorker(time.Second, time.Minute, func() (bool, error) { // want `retry helper sleeps with time.Sleep while ctx is in scope and not handed to it`
		_, err := db.QueryContext(ctx, q)
		if err == errMissing {
			return false, nil
		}
		return err == nil, err
	})
}

type cache struct{ m map[string]string }

func (c *cache) get(ctx context.Context, k string) (string, error) {
	if v, ok := c.m[k]; ok {
		return v, nil
	}
	return "", ctx.Err()
}

func secretLocal(c *cache, k string) error {
	return retryWorker(time.Second, time.Minute, func() (bool, error) {
		_, err := c.get(context.TODO(), k)
		if err == errMissing {
			return false, nil
		}
		return err == nil, err
	})
}
