package httpapi

import (
	"bytes"
	"context"
	"net/http"

	"github.com/retrylint/retrylint/budget"
)

// doWithRetry re-sends req on transport errors and 5xx answers. It is a
// clean retry in itself; what it sends is the caller's business.
func (c *Client) doWithRetry(ctx context.Context, req *http.Request) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !c.retries.Allow() {
				break
			}
			if err := budget.Sleep(ctx, c.backoff.Delay(attempt-1)); err != nil {
				return nil, err
			}
			if req.GetBody != nil {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				req.Body = body
			}
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

// CreateTopic builds a POST without a key and hands it to the retrying
// helper.
func (c *Client) CreateTopic(ctx context.Context, name string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/topics", bytes.NewReader([]byte(`{"name":"`+name+`"}`)))
	if err != nil {
		return err
	}
	resp, err := c.doWithRetry(ctx, req)
	if err != nil {
		return err
	}
	return decode(resp, nil)
}

// DeleteTopic sends a DELETE through the same helper: idempotent.
func (c *Client) DeleteTopic(ctx context.Context, name string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.base+"/v1/topics/"+name, nil)
	if err != nil {
		return err
	}
	resp, err := c.doWithRetry(ctx, req)
	if err != nil {
		return err
	}
	return decode(resp, nil)
}

// CreateSubscription sets a key once before handing the POST over.
func (c *Client) CreateSubscription(ctx context.Context, topic, name string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/topics/"+topic+"/subscriptions", bytes.NewReader([]byte(`{"name":"`+name+`"}`)))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", newKey())
	resp, err := c.doWithRetry(ctx, req)
	if err != nil {
		return err
	}
	return decode(resp, nil)
}

// CreateQueue mints the key into a variable before handing the POST over.
func (c *Client) CreateQueue(ctx context.Context, name string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/queues", bytes.NewReader([]byte(`{"name":"`+name+`"}`)))
	if err != nil {
		return err
	}
	key := newKey()
	req.Header.Set("Idempotency-Key", key)
	resp, err := c.doWithRetry(ctx, req)
	if err != nil {
		return err
	}
	return decode(resp, nil)
}
