package shapes

import (
	"context"
	"net/http"
	"time"
)

// Periodic loops that wait at the head of each round for a delay the
// round before chose: the failure's choice is the wait between attempts,
// whatever success chooses.

func refreshEvery(ctx context.Context, url string, every time.Duration) {
	wait := every
	for { // want `retry site: shape=bare consume bound=deadline delay=fixed jitter=no ctx=caller consulted remote`
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := ping(ctx, url); err != nil {
				wait = time.Second
			} else {
				wait = every
			}
		}
	}
}

func refreshBackoff(ctx context.Context, url string, every time.Duration) {
	wait := every
	retry := time.Second
	for { // want `retry site: shape=bare consume bound=deadline delay=growing jitter=no ctx=caller consulted remote`
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := ping(ctx, url); err != nil {
				wait = retry
				retry *= 2
				continue
			}
			wait, retry = every, time.Second
		}
	}
}

func refreshSleep(url string, every time.Duration) {
	d := every
	for { // want `retry site: shape=bare consume bound=none delay=fixed jitter=no ctx=none remote attempts=unbounded`
		time.Sleep(d)
		resp, err := http.Get(url)
		if err != nil {
			d = 5 * time.Second
			continue
		}
		resp.Body.Close()
		d = every
	}
}

// Look-alikes.

// Both outcomes choose the same wait: periodic.
func refreshSame(ctx context.Context, url string, every time.Duration) {
	wait := every
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := ping(ctx, url); err != nil {
				wait = every
			} else {
				wait = every
			}
		}
	}
}

// Only success chooses: after a failure the wait is what it was.
func refreshKeep(ctx context.Context, url string, every time.Duration) {
	wait := time.Second
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := ping(ctx, url); err == nil {
				wait = every
			}
		}
	}
}

// Only failure chooses: success keeps whatever the wait was, so the two
// cannot be told apart.
func refreshFailOnly(ctx context.Context, url string) {
	wait := time.Minute
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := ping(ctx, url); err != nil {
				wait = time.Second
			}
		}
	}
}

// The wait is chosen from the result, not the outcome.
func refreshHinted(ctx context.Context, url string) {
	wait := time.Minute
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			n, err := pingHint(ctx, url)
			if err != nil {
				continue
			}
			wait = n
		}
	}
}

// A variable declared in the round is chosen afresh every round: no
// choice carries to the next wait.
func refreshLocal(ctx context.Context, url string, every time.Duration) {
	for {
		wait := every
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := ping(ctx, url); err != nil {
				wait = time.Second
			}
		}
		_ = wait
	}
}

func ping(ctx context.Context, url string) error {
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

func pingHint(ctx context.Context, url string) (time.Duration, error) {
	if err := ping(ctx, url); err != nil {
		return 0, err
	}
	return time.Minute, nil
}
