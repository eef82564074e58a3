// Package ledger is the client for the ledger service: balances, transfers
// and refunds over its JSON HTTP API.
package ledger

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"time"

	"github.com/retrylint/retrylint/budget"

	"example.com/ledgerclient/internal/wire"
)

// Retry policy for every ledger call. The budget is what keeps a ledger
// stall from turning into a retry storm; the attempt cap is a backstop.
const (
	maxAttempts = 3
	baseDelay   = 100 * time.Millisecond
	maxDelay    = 10 * time.Second
)

// Client talks to one ledger cluster. It is safe for concurrent use.
type Client struct {
	endpoints []string // replicas, in order of preference
	base      string   // the replica that answered last
	hc        *http.Client
	budget    *budget.Adaptive // shared by every call this client makes
}

// New returns a client for the ledger replicas at endpoints. It asks them,
// in order, which one is the leader.
func New(ctx context.Context, endpoints []string) (*Client, error) {
	if len(endpoints) == 0 {
		return nil, errors.New("ledger: no endpoints")
	}
	b, err := budget.NewAdaptive(0.1, 0.2, time.Second) // the zero Adaptive's numbers
	if err != nil {
		return nil, err
	}
	c := &Client{
		endpoints: endpoints,
		hc:        &http.Client{Timeout: 10 * time.Second},
		budget:    b,
	}
	if c.base, err = c.leader(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// leader asks each replica in turn for the current leader and returns the
// first answer.
func (c *Client) leader(ctx context.Context) (string, error) {
	var errs []error
	for _, ep := range c.endpoints {
		req, err := wire.NewJSONRequest(ctx, http.MethodGet, ep+"/v1/leader", nil)
		if err != nil {
			return "", err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var l struct {
			URL string `json:"url"`
		}
		if err := wire.Decode(resp, &l); err != nil {
			errs = append(errs, err)
			continue
		}
		return l.URL, nil
	}
	return "", fmt.Errorf("ledger: no replica answered: %w", errors.Join(errs...))
}

// Account is a ledger account as the service reports it.
type Account struct {
	ID       string `json:"id"`
	Owner    string `json:"owner"`
	Currency string `json:"currency"`
	Frozen   bool   `json:"frozen"`
}

// Account returns the account with the given id.
//
// It retries network errors and temporary statuses up to maxAttempts times,
// while the client's retry budget allows, with full-jitter backoff, and
// gives up as soon as ctx is done.
func (c *Client) Account(ctx context.Context, id string) (Account, error) {
	u := c.base + "/v1/accounts/" + url.PathEscape(id)
	var err error
	for attempt := range maxAttempts {
		if attempt > 0 {
			if !c.budget.Allow() {
				return Account{}, fmt.Errorf("ledger: account %s: retry budget exhausted: %w", id, err)
			}
			d := rand.N(min(maxDelay, baseDelay<<attempt))
			t := time.NewTimer(d)
			select {
			case <-ctx.Done():
				t.Stop()
				return Account{}, fmt.Errorf("ledger: account %s: %w", id, ctx.Err())
			case <-t.C:
			}
		}
		var a Account
		err = c.get(ctx, u, &a)
		c.budget.Record(err)
		if err == nil {
			return a, nil
		}
		if !wire.Retryable(err) {
			break
		}
	}
	return Account{}, fmt.Errorf("ledger: account %s: %w", id, err)
}

// get performs one GET of u and decodes the answer into v.
func (c *Client) get(ctx context.Context, u string, v any) error {
	req, err := wire.NewJSONRequest(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return wire.Decode(resp, v)
}
