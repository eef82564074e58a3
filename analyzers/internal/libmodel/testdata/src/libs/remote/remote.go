// Package remote gives the tests operations that reach the network and a
// budget to consult.
package remote

import (
	"context"
	"net/http"

	"golang.org/x/time/rate"
)

// Fetch reaches the network.
func Fetch(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://example.com", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Local does not.
func Local() error { return nil }

// Limiter is a shared retry budget.
var Limiter = rate.NewLimiter(10, 10)

// Done asks the network whether a job is done.
func Done(ctx context.Context) (bool, error) {
	if err := Fetch(ctx); err != nil {
		return false, err
	}
	return true, nil
}
