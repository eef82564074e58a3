package fix

import (
	"net/http"
	"time"
)

// The guard goes above the comment that introduces the wait, so the two
// stay together.
func commented(c *http.Client, url string) (*http.Response, error) {
	var lastErr error
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := c.Get(url) // one attempt
		if err == nil {
			return resp, nil
		}
		lastErr = err // kept for the error after the loop

		// Linear backoff: 0s, 1s, 2s.
		// (The server asks for no more.)
		time.Sleep(time.Duration(i) * time.Second)
	}
	return nil, lastErr
}
