package shapes

import (
	"errors"
	"net/http"
	"time"
)

// waitFor polls f until it says done or the time is up, and calls it again
// after a failure too: it retries its condition's failures.
func waitFor(timeout, interval time.Duration, f func() (bool, error)) error {
	var lastErr error
	timeup := time.After(timeout)
	for {
		select {
		case <-timeup:
			return errors.Join(errors.New("time is up"), lastErr)
		default:
		}
		stop, err := f()
		if stop {
			return nil
		}
		if err != nil {
			lastErr = err
		}
		time.Sleep(interval)
	}
}

// A condition that calls the network is retried at the fixed interval.
func waitInSync(url string) error {
	return waitFor(time.Minute, 4*time.Second, func() (bool, error) { // want `retry site: shape=helper bound=unknown delay=fixed jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err != nil {
			return false, err
		}
		defer resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	})
}

// Look-alike: a local condition is polled, not retried.
func waitLocal(ready func() bool) error {
	return waitFor(time.Minute, time.Second, func() (bool, error) {
		return ready(), nil
	})
}
