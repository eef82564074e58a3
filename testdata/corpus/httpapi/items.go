package httpapi

import (
	"bytes"
	"context"
	"net/http"

	"github.com/retrylint/retrylint/budget"
)

// call is the request helper of most SDK clients: it takes the method and
// path, builds the request on every attempt and retries transport errors
// and 5xx answers. It is a clean retry in itself.
func (c *Client) call(ctx context.Context, method, path string, body []byte, hdr http.Header) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !c.retries.Allow() {
				break
			}
			if err := budget.Sleep(ctx, c.backoff.Delay(attempt-1)); err != nil {
				return nil, err
			}
		}
		req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		for k, v := range hdr {
			req.Header[k] = v
		}
		resp, err := c.hc.Do(req)
		c.retries.Record(err)
		if err != nil {
			lastErr = err
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			lastErr = errStatus
			continue
		}
		return resp, nil
	}
	return nil, lastErr
}

// CreateItem POSTs through the helper with no key: the helper re-sends
// it.
func (c *Client) CreateItem(ctx context.Context, body []byte) error {
	resp, err := c.call(ctx, http.MethodPost, "/v1/items", body, nil)
	if err != nil {
		return err
	}
	return decode(resp, nil)
}

// GetItem GETs through the helper.
func (c *Client) GetItem(ctx context.Context, id string) error {
	resp, err := c.call(ctx, http.MethodGet, "/v1/items/"+id, nil, nil)
	if err != nil {
		return err
	}
	return decode(resp, nil)
}

// DeleteItem DELETEs through the helper.
func (c *Client) DeleteItem(ctx context.Context, id string) error {
	resp, err := c.call(ctx, http.MethodDelete, "/v1/items/"+id, nil, nil)
	if err != nil {
		return err
	}
	return decode(resp, nil)
}
