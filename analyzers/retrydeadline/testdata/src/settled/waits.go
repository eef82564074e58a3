package settled

import (
	"context"
	"net/http"
	"os"
	"time"
)

func get(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// <-time.After outside a select is a sleep.
func afterWait(ctx context.Context, url string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = get(ctx, url); err == nil {
			return nil
		}
		<-time.After(2 * time.Second) // want `retry sleeps while ctx is in scope`
	}
	return err
}

// A timer receive outside a select is a sleep.
func timerWait(ctx context.Context, url string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = get(ctx, url); err == nil {
			return nil
		}
		t := time.NewTimer(2 * time.Second)
		<-t.C // want `retry sleeps while ctx is in scope`
	}
	return err
}

// A timer raced against the context: consulted.
func timerSelect(ctx context.Context, url string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = get(ctx, url); err == nil {
			return nil
		}
		t := time.NewTimer(2 * time.Second)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}

// An elapsed-time limit bounds the retry, not how long a cancelled caller
// waits: the sleep still ignores ctx.
func elapsedSleep(ctx context.Context, url string) error {
	start := time.Now()
	var err error
	for time.Since(start) < time.Minute {
		if err = get(ctx, url); err == nil {
			return nil
		}
		time.Sleep(5 * time.Second) // want `retry sleeps while ctx is in scope`
	}
	return err
}

// All waits together stay under one second: silent.
func shortWaits(ctx context.Context, name string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = lock(name); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Short fixed waits around remote work: the fixed delay is retrysleep's
// finding, and its cure (a growing backoff) leaves the total unknown, so
// the clause holds now rather than after that fix.
func shortRemote(ctx context.Context, url string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = get(ctx, url); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry sleeps while ctx is in scope`
	}
	return err
}

// lock takes a lock file: local work.
func lock(name string) error {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	return f.Close()
}

// Four waits of 400ms are 1.6s: the clause holds.
func longerWaits(ctx context.Context, name string) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = lock(name); err == nil {
			return nil
		}
		time.Sleep(400 * time.Millisecond) // want `retry sleeps while ctx is in scope`
	}
	return err
}

// Five waits of 50ms and three receives of 100ms: under a second.
func shortFive(ctx context.Context, name string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = lock(name); err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

func shortAfter(ctx context.Context, name string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = lock(name); err == nil {
			return nil
		}
		<-time.After(100 * time.Millisecond)
	}
	return err
}

// The context is checked between attempts: the timer receive is short of it.
func timerChecked(ctx context.Context, url string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = get(ctx, url); err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		t := time.NewTimer(2 * time.Second)
		<-t.C
	}
	return err
}

// No context or stop channel in scope: nothing to consult.
func timerNoCtx(url string) error {
	var err error
	for i := 0; i < 5; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = get(ctx, url)
		cancel()
		if err == nil {
			return nil
		}
		t := time.NewTimer(2 * time.Second)
		<-t.C
	}
	return err
}

// A timer received in a select that offers the context.
func timerReset(ctx context.Context, url string) error {
	t := time.NewTimer(0)
	defer t.Stop()
	var err error
	for i := 0; i < 5; i++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if err = get(ctx, url); err == nil {
			return nil
		}
		t.Reset(2 * time.Second)
	}
	return err
}

// A delay the code cannot add up: the clause holds.
func unknownCount(ctx context.Context, url string, n int) error {
	var err error
	for i := 0; i < n; i++ {
		if err = get(ctx, url); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry sleeps while ctx is in scope`
	}
	return err
}
