package ledger

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"example.com/ledgerclient/internal/wire"
)

// Transfer moves Amount minor units from one account to another.
type Transfer struct {
	ID        string `json:"id,omitempty"` // assigned by the ledger
	From      string `json:"from"`
	To        string `json:"to"`
	Amount    int64  `json:"amount"`
	Currency  string `json:"currency"`
	Reference string `json:"reference,omitempty"`
	Status    string `json:"status,omitempty"`
}

// PostTransfer submits t and returns it as the ledger recorded it.
func (c *Client) PostTransfer(ctx context.Context, t Transfer) (Transfer, error) {
	body, err := json.Marshal(t)
	if err != nil {
		return Transfer{}, err
	}
	for attempt := 0; attempt < maxAttempts; attempt++ {
		if attempt > 0 {
			if !c.budget.Allow() {
				break
			}
			select {
			case <-ctx.Done():
				return Transfer{}, ctx.Err()
			case <-time.After(rand.N(min(maxDelay, baseDelay<<attempt))):
			}
		}
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/transfers", bytes.NewReader(body))
		if err != nil {
			return Transfer{}, err
		}
		req.Header.Set("Content-Type", "application/json")
		var resp *http.Response
		resp, err = c.hc.Do(req)
		if err == nil {
			var out Transfer
			if err = wire.Decode(resp, &out); err == nil {
				c.budget.Record(nil)
				return out, nil
			}
		}
		c.budget.RecordFailure()
		if !wire.Retryable(err) {
			break
		}
	}
	return Transfer{}, fmt.Errorf("ledger: transfer %s -> %s: %w", t.From, t.To, err)
}

// AwaitSettlement polls the transfer until the ledger settles or rejects
// it, and returns its final state.
func (c *Client) AwaitSettlement(ctx context.Context, id string) (Transfer, error) {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		var t Transfer
		if err := c.get(ctx, c.base+"/v1/transfers/"+id, &t); err != nil {
			return Transfer{}, fmt.Errorf("ledger: transfer %s: %w", id, err)
		}
		switch t.Status {
		case "settled", "rejected":
			return t, nil
		}
		select {
		case <-ctx.Done():
			return Transfer{}, fmt.Errorf("ledger: transfer %s still %s: %w", id, t.Status, ctx.Err())
		case <-tick.C:
		}
	}
}
