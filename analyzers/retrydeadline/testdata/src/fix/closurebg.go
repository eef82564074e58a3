package fix

import (
	"context"
	"net/http"
)

// The context without a deadline is made inside the closure each attempt
// runs: a timeout before the loop could not reach it, so no fix.
func fetchClosure(c *http.Client, url string) error {
	try := func() error {
		ctx := context.Background()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	var err error
	for i := 0; i < 3; i++ { // want `retry loop runs without a deadline`
		if err = try(); err == nil {
			return nil
		}
	}
	return err
}
