package ledger

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/retrylint/retrylint/budget"

	"example.com/ledgerclient/internal/wire"
)

// Refund reverses all or part of a settled transfer.
type Refund struct {
	Transfer string `json:"transfer"`
	Amount   int64  `json:"amount"`
	Reason   string `json:"reason"`
}

// requestID returns a fresh random id for the ledger's duplicate detection.
func requestID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b[:])
}

// PostRefund submits r. The ledger deduplicates refunds by Idempotency-Key.
func (c *Client) PostRefund(ctx context.Context, r Refund) error {
	body, err := json.Marshal(r)
	if err != nil {
		return err
	}
	seq := budget.Backoff{}.Start()
	for attempt := 1; ; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/refunds", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", requestID())
		var resp *http.Response
		resp, err = c.hc.Do(req)
		if err == nil {
			err = wire.Decode(resp, nil)
		}
		c.budget.Record(err)
		if err == nil {
			return nil
		}
		if attempt == maxAttempts || !wire.Retryable(err) || !c.budget.Allow() {
			break
		}
		if err := budget.Sleep(ctx, seq.Next()); err != nil {
			return err
		}
	}
	return fmt.Errorf("ledger: refund of %s: %w", r.Transfer, err)
}
