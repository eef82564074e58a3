package a

import (
	"context"
	"herald"
	"math/rand"
	"net/http"
	"time"
)

// An announce loop: success re-arms the timer for the next period, a
// failed POST for a fixed retry interval. The failure's delay is fixed.
func announce(ctx context.Context, c *http.Client, url string, every time.Duration) {
	t := time.NewTimer(0)
	for {
		select { // want `retry waits a fixed delay`
		case <-t.C:
			resp, err := c.Get(url)
			if err != nil {
				t.Reset(5 * time.Minute)
				continue
			}
			resp.Body.Close()
			t.Reset(every)
		case <-ctx.Done():
			return
		}
	}
}

// A periodic refresh re-arms the same period whatever happened: a
// schedule, not a retry.
func refreshEvery(ctx context.Context, c *http.Client, url string) {
	t := time.NewTimer(0)
	for {
		select {
		case <-t.C:
			resp, err := c.Get(url)
			if err == nil {
				resp.Body.Close()
			}
			t.Reset(time.Minute)
		case <-ctx.Done():
			return
		}
	}
}

// Success never re-arms and a failure re-arms with a delay the loop
// doubles: growing (retryjitter's business), not fixed.
func rewatch(ctx context.Context, c *http.Client, url string) {
	pause := time.Second
	t := time.NewTimer(0)
	for {
		select {
		case <-t.C:
			resp, err := c.Get(url)
			if err != nil {
				t.Reset(pause)
				pause *= 2
				continue
			}
			resp.Body.Close()
		case <-ctx.Done():
			return
		}
	}
}

// A failure re-arms the timer with a delay from a config function the
// analysis cannot see: unknown, silent.
func rearmConfigured(ctx context.Context, c *http.Client, url string, retryIn func() time.Duration) {
	t := time.NewTimer(0)
	for {
		select {
		case <-t.C:
			resp, err := c.Get(url)
			if err != nil {
				t.Reset(retryIn())
				continue
			}
			resp.Body.Close()
		case <-ctx.Done():
			return
		}
	}
}

// A watch loop that handles events in one case and resyncs in another: a
// failure schedules the resync on a channel a timer callback signals, a
// fixed ten seconds later. The event case is a worker; the resync case
// retries.
func resyncLoop(c *http.Client, url string, events <-chan string, stop <-chan struct{}) {
	retry := make(chan struct{})
	failed := false
	failure := func() {
		failed = true
		time.AfterFunc(10*time.Second, func() { retry <- struct{}{} })
	}
	for {
		select { // want `retry waits a fixed delay`
		case ev := <-events:
			if failed {
				continue
			}
			if resp, err := c.Get(url + ev); err != nil {
				failure()
			} else {
				resp.Body.Close()
			}
		case <-retry:
			resp, err := c.Get(url)
			if err != nil {
				failure()
				continue
			}
			resp.Body.Close()
			failed = false
		case <-stop:
			return
		}
	}
}

// A channel a timer callback signals for the next period whatever the
// outcome: periodic, not a retry.
func tickByCallback(c *http.Client, url string, stop <-chan struct{}) {
	next := make(chan struct{})
	schedule := func() { time.AfterFunc(time.Minute, func() { next <- struct{}{} }) }
	schedule()
	for {
		select {
		case <-next:
			if resp, err := c.Get(url); err == nil {
				resp.Body.Close()
			}
			schedule()
		case <-stop:
			return
		}
	}
}

// The channel is also signalled by a request from elsewhere: what it
// waits for is not a timer's delay.
func resyncOnRequest(c *http.Client, url string, requests <-chan struct{}, stop <-chan struct{}) {
	retry := make(chan struct{}, 1)
	go func() {
		for range requests {
			retry <- struct{}{}
		}
	}()
	for {
		select {
		case <-retry:
			resp, err := c.Get(url)
			if err != nil {
				time.AfterFunc(10*time.Second, func() { retry <- struct{}{} })
				continue
			}
			resp.Body.Close()
		case <-stop:
			return
		}
	}
}

type announcer struct {
	c   *http.Client
	url string
}

// send re-arms the caller's timer: after a failed request for a fixed
// retry interval, after a success for the next period. With nothing to
// send it waits the retry interval too, before any request: that is no
// success choosing the failure's delay.
func (a *announcer) send(t *time.Timer) {
	if a.url == "" {
		t.Reset(5 * time.Minute)
		return
	}
	resp, err := a.c.Get(a.url)
	if err != nil {
		t.Reset(5 * time.Minute)
		return
	}
	resp.Body.Close()
	t.Reset(time.Hour)
}

// The loop retries send's request at the delay send chooses on failure.
func (a *announcer) serve(ctx context.Context) {
	t := time.NewTimer(0)
	for {
		select { // want `retry waits a fixed delay`
		case <-t.C:
			a.send(t)
		case <-ctx.Done():
			return
		}
	}
}

// refresh re-arms the same period whatever happened.
func (a *announcer) refresh(t *time.Timer) {
	resp, err := a.c.Get(a.url)
	if err == nil {
		resp.Body.Close()
	}
	t.Reset(time.Hour)
}

func (a *announcer) serveRefresh(ctx context.Context) {
	t := time.NewTimer(0)
	for {
		select {
		case <-t.C:
			a.refresh(t)
		case <-ctx.Done():
			return
		}
	}
}

// sendJittered re-arms a failure with a random delay.
func (a *announcer) sendJittered(t *time.Timer) {
	resp, err := a.c.Get(a.url)
	if err != nil {
		t.Reset(time.Duration(rand.Int63n(int64(5 * time.Minute))))
		return
	}
	resp.Body.Close()
	t.Reset(time.Hour)
}

func (a *announcer) serveJittered(ctx context.Context) {
	t := time.NewTimer(0)
	for {
		select {
		case <-t.C:
			a.sendJittered(t)
		case <-ctx.Done():
			return
		}
	}
}

// timerRef is a named pointer type: a function handed one holds no
// *time.Timer parameter (and the model must not take it for one).
type timerRef *time.Timer

func stopRef(t timerRef) {
	if t != nil {
		(*time.Timer)(t).Stop()
	}
}

// The function that re-arms the timer on failure is in another package:
// its fact says so.
func serveElsewhere(ctx context.Context, c *herald.Client) {
	t := time.NewTimer(0)
	for {
		select { // want `retry waits a fixed delay`
		case <-t.C:
			c.Send(t)
		case <-ctx.Done():
			return
		}
	}
}
