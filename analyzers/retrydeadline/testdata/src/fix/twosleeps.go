package fix

import (
	"context"
	"errors"
	"net/http"
	"time"
)

var errDeclined = errors.New("declined")

// Two sleeps, after an error and after a 5xx: both become context-aware,
// or the one left would hide behind the other.
func charge(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req.WithContext(ctx))
		if err != nil {
			time.Sleep(time.Duration(i) * time.Second) // want `retry sleeps while ctx is in scope`
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			time.Sleep(time.Duration(i) * time.Second)
			continue
		}
		if resp.StatusCode == http.StatusPaymentRequired {
			resp.Body.Close()
			return nil, errDeclined
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

// A sleep and a bare timer receive: the receive is not one call to
// rewrite, so neither is.
func mixed(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req.WithContext(ctx))
		if err != nil {
			time.Sleep(time.Second) // want `retry sleeps while ctx is in scope`
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			<-time.After(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}
