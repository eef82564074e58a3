package fix

import (
	"errors"
	"net/http"
	"time"
)

// The backoff is declared above the comment that introduces the loop, so
// the comment stays with it.
func introduced(c *http.Client, url string) (*http.Response, error) {
	start := time.Now() // for the log
	_ = start

	// Try a few times: the server restarts often.
	// Each attempt is cheap.
	for i := 0; i < 4; i++ {
		resp, err := c.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(300 * time.Millisecond) // want `retry waits a fixed delay`
	}
	return nil, errors.New("gave up")
}
