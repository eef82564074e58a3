package fixdo

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Negative: the plain shape, labeled (a goto on a first call skips a
// warm-up): replacing the loop would leave the label behind, unused.
func keepLabeled(ctx context.Context, c *http.Client, url string, warm bool) (*http.Response, error) {
	if warm {
		goto attempts
	}
	_, _ = c.Head(url)
attempts:
	for range 2 { // want `retry loop has no retry budget`
		resp, err := c.Head(url)
		if err == nil {
			return resp, nil
		}
		<-time.After(50 * time.Millisecond)
	}
	return nil, errors.New("head: gave up")
}
