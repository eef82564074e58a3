package shapes

import (
	"context"
	"net/http"
	"time"
)

// Retry schedules: ranging over a list of delays is a retry loop bounded
// by the list, and the delays are read from the list's literal.

var evenSchedule = []time.Duration{time.Second, time.Second, time.Second}

func risingSchedule(url string) (*http.Response, error) {
	delays := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}
	var err error
	for _, d := range delays { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=none remote`
		var resp *http.Response
		resp, err = http.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(d)
	}
	return nil, err
}

func evenScheduled(url string) (*http.Response, error) {
	var err error
	for _, d := range evenSchedule { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=none remote`
		var resp *http.Response
		resp, err = http.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(d)
	}
	return nil, err
}

// Look-alikes.

// A schedule the caller passes: its delays are unknown.
func givenSchedule(url string, delays []time.Duration) (*http.Response, error) {
	var err error
	for _, d := range delays { // want `retry site: shape=counted bound=counter delay=unknown jitter=no ctx=none remote`
		var resp *http.Response
		resp, err = http.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(d)
	}
	return nil, err
}

// A schedule that falls back is neither fixed nor growing.
func fallingSchedule(url string) (*http.Response, error) {
	var err error
	for _, d := range [...]time.Duration{time.Second, 100 * time.Millisecond} { // want `retry site: shape=counted bound=counter delay=unknown jitter=no ctx=none remote`
		var resp *http.Response
		resp, err = http.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(d)
	}
	return nil, err
}

// Each attempt runs under the next timeout of the list: the element is
// the attempt's own setting, as a failover loop's target is.
func risingTimeouts(c *http.Client, url string) error {
	for _, d := range []time.Duration{time.Second, 2 * time.Second} {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := c.Do(req)
		cancel()
		if err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return nil
}

// Durations summed, not waited: a collection.
func total(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum
}
