package fixabsent

import (
	"context"
	"errors"
	"net/http"
)

func get(url string) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop retries at once`
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

func do(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for attempt := range 3 { // want `retry loop retries at once`
		// one attempt
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		_ = attempt
	}
	return nil, errors.New("gave up")
}

// No fix: the counter also moves in the body.
func skips(url string) (*http.Response, error) {
	for i := 0; i < 6; i++ { // want `retry loop retries at once`
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
		i++
	}
	return nil, errors.New("gave up")
}
