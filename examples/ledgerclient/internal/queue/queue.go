// Package queue consumes the payment-instruction queue: it long-polls the
// queue service over HTTP, hands each message to a handler and deletes the
// message once handled.
package queue

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"example.com/ledgerclient/internal/wire"
)

// Message is one queued instruction. Receipt identifies this delivery of
// it; deleting by receipt is idempotent.
type Message struct {
	ID      string          `json:"id"`
	Receipt string          `json:"receipt"`
	Body    json.RawMessage `json:"body"`
}

// Client is the queue service API for one queue.
type Client struct {
	base  string // e.g. http://queue:8080/v1/queues/payments
	hc    *http.Client
	batch int
}

// NewClient returns a client for the queue at base.
func NewClient(base string, batch int) *Client {
	return &Client{
		base: base,
		// Long polls last up to 20 s; leave room for the answer.
		hc:    &http.Client{Timeout: 30 * time.Second},
		batch: batch,
	}
}

// Receive long-polls for up to c.batch messages.
func (c *Client) Receive(ctx context.Context) ([]Message, error) {
	q := url.Values{"max": {strconv.Itoa(c.batch)}, "wait": {"20s"}}
	req, err := wire.NewJSONRequest(ctx, http.MethodGet, c.base+"/messages?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	var msgs []Message
	return msgs, wire.Decode(resp, &msgs)
}

// Delete removes a handled message.
func (c *Client) Delete(ctx context.Context, receipt string) error {
	req, err := wire.NewJSONRequest(ctx, http.MethodDelete, c.base+"/messages/"+url.PathEscape(receipt), nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return wire.Decode(resp, nil)
}
