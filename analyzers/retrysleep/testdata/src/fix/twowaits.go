package fix

import (
	"errors"
	"net/http"
	"time"
)

// Two waits of the same delay draw from one backoff.
func twoWaits(c *http.Client, url string) (*http.Response, error) {
	for i := 0; i < 4; i++ {
		resp, err := c.Get(url)
		if err != nil {
			time.Sleep(500 * time.Millisecond) // want `retry waits a fixed delay`
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			time.Sleep(500 * time.Millisecond)
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

// Two different fixed delays: no one backoff replaces both, so no fix.
func twoDelays(c *http.Client, url string) (*http.Response, error) {
	for i := 0; i < 4; i++ {
		resp, err := c.Get(url)
		if err != nil {
			time.Sleep(500 * time.Millisecond) // want `retry waits a fixed delay`
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			time.Sleep(2 * time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

// Fifty short waits for a server to come up: a backoff doubling to its cap
// would wait minutes instead of half a second, so no fix.
func waitListening(c *http.Client, url string) error {
	for i := 0; i < 50; i++ {
		resp, err := c.Get(url)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(10 * time.Millisecond) // want `retry waits a fixed delay`
	}
	return errors.New("never came up")
}
