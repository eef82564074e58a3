package fix

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type api struct {
	base string
	hc   *http.Client
}

// newRequest builds the client's requests; the method comes from its
// caller.
func (a *api) newRequest(ctx context.Context, method, path string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// The request comes from the builder: the key is set on it before it is
// sent.
func (a *api) createCharge(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		req, err := a.newRequest(ctx, http.MethodPost, "/charges")
		if err != nil {
			return err
		}
		resp, err := a.hc.Do(req) // want `POST request is re-sent by a retry loop without an idempotency key`
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return errors.New("gave up")
}
