// Package use retries calls of package dial: each attempt runs under the
// deadline dial's fact says, none when its remote calls have none.
package use

import (
	"context"
	"time"

	"through/dial"
)

func waitUp(addr string) error {
	var err error
	for i := 0; i < 5; i++ { // want `retry loop runs without a deadline: its attempts use no context and no client timeout`
		if err = dial.Ping(addr); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func waitPage(url string) error {
	var err error
	for i := 0; i < 5; i++ { // want `retry loop runs without a deadline: its attempts use no context and no client timeout`
		if err = dial.Fetch(url); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func waitCheck(addr string) error {
	var err error
	for i := 0; i < 5; i++ { // want `retry loop runs without a deadline: its attempts use no context and no client timeout`
		if err = dial.Check(addr); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Negatives.

func waitTimeout(addr string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = dial.PingTimeout(addr); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func waitCtx(ctx context.Context, addr string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = dial.PingCtx(ctx, addr); err == nil {
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

func waitHeld(c *dial.Client, url string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = c.Get(url); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func waitBoth(c *dial.Client, addr, url string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = c.Both(addr, url); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func waitLater(addr string, run func(func() error) error) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = dial.Later(addr, run); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func waitBounded(url string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = dial.Bounded(url); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// An elapsed-time limit bounds the loop whatever its attempts run under.
func waitElapsed(addr string) error {
	start := time.Now()
	for time.Since(start) < time.Minute {
		if err := dial.Ping(addr); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

func waitTimed(url string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = dial.Timed(url); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
