package fix

import (
	"errors"
	"net/http"
	"time"
)

// classify says "retry" on a server error.
func classify(resp *http.Response) (bool, error) {
	if resp.StatusCode >= 500 {
		return true, nil
	}
	if resp.StatusCode >= 400 {
		return false, errors.New(resp.Status)
	}
	return false, nil
}

// A retry decided by the package's own verdict: the same fix as any
// counted loop's fixed wait.
func classified(c *http.Client, url string) (*http.Response, error) {
	for i := 0; i < 5; i++ {
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		retry, err := classify(resp)
		if err != nil {
			return nil, err
		}
		if retry {
			resp.Body.Close()
			time.Sleep(2 * time.Second) // want `retry waits a fixed delay`
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

// A goto back on a failure status.
func gotoStatus(c *http.Client, url string) (*http.Response, error) {
	tries := 0
again:
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusServiceUnavailable && tries < 3 {
		resp.Body.Close()
		tries++
		time.Sleep(time.Second) // want `retry waits a fixed delay`
		goto again
	}
	return resp, nil
}
