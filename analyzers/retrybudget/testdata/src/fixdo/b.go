package fixdo

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// The only uses of errors and time are in the loop and the return: the
// alternative deletes their imports.
func replaceHead(ctx context.Context, c *http.Client, url string) (*http.Response, error) {
	for range 2 { // want `retry loop has no retry budget`
		resp, err := c.Head(url)
		if err == nil {
			return resp, nil
		}
		<-time.After(50 * time.Millisecond)
	}
	return nil, errors.New("head: gave up")
}
