package settled

import (
	"context"
	"math/rand/v2"
	"os"
	"time"
)

// Local work retried with growing delays: nobody is hit, no jitter needed.
func renameGrowing(from, to string) error {
	d := time.Millisecond
	var err error
	for i := 0; i < 5; i++ {
		if err = os.Rename(from, to); err == nil {
			return nil
		}
		time.Sleep(d)
		d *= 2
	}
	return err
}

type Store interface {
	Put(ctx context.Context, k, v string) error
}

// Unknown work: its delay is judged.
func putGrowing(ctx context.Context, s Store, k, v string) error {
	d := 100 * time.Millisecond
	var err error
	for i := 0; i < 5; i++ {
		if err = s.Put(ctx, k, v); err == nil {
			return nil
		}
		time.Sleep(d) // want `backoff grows without jitter`
		d *= 2
	}
	return err
}

// A local lock file, retried with growing waits: nobody is hit.
func lockGrowing(name string) (*os.File, error) {
	d := 10 * time.Millisecond
	var err error
	for i := 0; i < 6; i++ {
		var f *os.File
		if f, err = os.OpenFile(name, os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			return f, nil
		}
		time.Sleep(d)
		d *= 2
	}
	return nil, err
}

// Unknown work with jitter in the growing delay: fine.
func putJittered(ctx context.Context, s Store, k, v string) error {
	d := 100 * time.Millisecond
	var err error
	for i := 0; i < 5; i++ {
		if err = s.Put(ctx, k, v); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(d))))
		d *= 2
	}
	return err
}
