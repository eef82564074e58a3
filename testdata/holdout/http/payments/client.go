// Package payments is a client for the internal payments API.
package payments

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// ErrDeclined is returned when the processor declines a charge.
var ErrDeclined = errors.New("payments: charge declined")

// Client talks to the payments API. It is safe for concurrent use.
type Client struct {
	hc      *http.Client
	base    string
	apiKey  string
	budget  *budget.Adaptive
	breaker *budget.Breaker
}

// New returns a Client for the API at base.
func New(base, apiKey string) *Client {
	return &Client{
		hc:      &http.Client{Timeout: 10 * time.Second},
		base:    base,
		apiKey:  apiKey,
		budget:  new(budget.Adaptive),
		breaker: &budget.Breaker{},
	}
}

// Charge is a request to move money from a card.
type Charge struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	Source   string `json:"source"`
}

// ChargeResult is what the API answers for a charge.
type ChargeResult struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

type statusError struct {
	Code int
	Body string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("payments: HTTP %d: %s", e.Code, e.Body)
}

func (c *Client) newRequest(ctx context.Context, method, path string, body []byte) (*http.Request, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// CreateCharge charges a card.
func (c *Client) CreateCharge(ctx context.Context, ch Charge) (res ChargeResult, err error) {
	body, err := json.Marshal(ch)
	if err != nil {
		return res, err
	}
	for attempt := 0; attempt < 3; attempt++ {
		req, rerr := c.newRequest(ctx, http.MethodPost, "/v1/charges", body)
		if rerr != nil {
			return res, rerr
		}
		resp, derr := c.hc.Do(req)
		if derr != nil {
			err = derr
			// Network blip: the processor is usually back within a second.
			time.Sleep(500 * time.Millisecond)
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			err = &statusError{Code: resp.StatusCode}
			time.Sleep(500 * time.Millisecond)
			continue
		}
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusPaymentRequired {
			return res, ErrDeclined
		}
		err = json.NewDecoder(resp.Body).Decode(&res)
		return res, err
	}
	return res, fmt.Errorf("create charge: %w", err)
}

// newRequestID returns a fresh request id for tracing and deduplication.
func newRequestID() string {
	return strconv.FormatUint(rand.Uint64(), 36)
}

// Refund refunds part or all of a charge.
func (c *Client) Refund(ctx context.Context, chargeID string, amount int64) error {
	body, _ := json.Marshal(map[string]any{"charge": chargeID, "amount": amount})
	seq := budget.Backoff{Base: 200 * time.Millisecond}.Start()
	var lastErr error
	for attempt := 0; attempt < budget.DefaultAttempts; attempt++ {
		if attempt > 0 {
			if !c.budget.Allow() {
				return fmt.Errorf("refund %s: retry budget exhausted: %w", chargeID, lastErr)
			}
			if err := budget.Sleep(ctx, seq.Next()); err != nil {
				return err
			}
		}
		req, err := c.newRequest(ctx, http.MethodPost, "/v1/refunds", body)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", newRequestID())
		resp, err := c.hc.Do(req)
		c.budget.Record(err)
		if err != nil {
			lastErr = err
			continue
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			lastErr = &statusError{Code: resp.StatusCode}
			continue
		}
		return nil
	}
	return lastErr
}

// Capture captures an authorised charge. The idempotency key is minted
// once, so a retry after a lost response cannot capture twice.
func (c *Client) Capture(ctx context.Context, chargeID string) (res ChargeResult, err error) {
	key := budget.NewIdempotencyKey()
	seq := budget.Backoff{}.Start()
retry:
	for attempt := 1; attempt <= 3; attempt++ {
		if attempt > 1 {
			if !c.budget.Allow() {
				break retry
			}
			select {
			case <-ctx.Done():
				return res, ctx.Err()
			case <-time.After(seq.Next()):
			}
		}
		req, rerr := c.newRequest(ctx, http.MethodPost, "/v1/charges/"+chargeID+"/capture", nil)
		if rerr != nil {
			return res, rerr
		}
		req.Header.Set(budget.IdempotencyKeyHeader, key)
		resp, derr := c.hc.Do(req)
		c.budget.Record(derr)
		if derr != nil {
			err = derr
			continue
		}
		switch {
		case resp.StatusCode >= 500:
			resp.Body.Close()
			err = &statusError{Code: resp.StatusCode}
			continue retry
		case resp.StatusCode >= 400:
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
			resp.Body.Close()
			return res, &statusError{Code: resp.StatusCode, Body: string(b)}
		}
		defer resp.Body.Close()
		return res, json.NewDecoder(resp.Body).Decode(&res)
	}
	if err == nil {
		err = errors.New("retry budget exhausted")
	}
	return res, fmt.Errorf("capture %s: %w", chargeID, err)
}

// Balance is an account balance.
type Balance struct {
	Available int64 `json:"available"`
	Pending   int64 `json:"pending"`
}

// GetBalance reads the balance of an account.
func (c *Client) GetBalance(ctx context.Context, account string) (Balance, error) {
	var (
		b     Balance
		err   error
		delay = 100 * time.Millisecond
	)
	for attempt := 0; attempt < 4; attempt++ {
		if attempt > 0 {
			if !c.budget.Allow() {
				break
			}
			select {
			case <-ctx.Done():
				return Balance{}, ctx.Err()
			case <-time.After(delay):
			}
			delay *= 2
		}
		b, err = c.getBalanceOnce(ctx, account)
		c.budget.Record(err)
		if err == nil {
			return b, nil
		}
	}
	return Balance{}, err
}

func (c *Client) getBalanceOnce(ctx context.Context, account string) (Balance, error) {
	req, err := c.newRequest(ctx, http.MethodGet, "/v1/accounts/"+account+"/balance", nil)
	if err != nil {
		return Balance{}, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return Balance{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Balance{}, &statusError{Code: resp.StatusCode}
	}
	var b Balance
	err = json.NewDecoder(resp.Body).Decode(&b)
	return b, err
}

// Transaction is one ledger entry.
type Transaction struct {
	ID     string `json:"id"`
	Amount int64  `json:"amount"`
}

type txPage struct {
	Data       []Transaction `json:"data"`
	NextCursor string        `json:"next_cursor"`
}

// ListTransactions pages through every transaction of an account.
func (c *Client) ListTransactions(ctx context.Context, account string) ([]Transaction, error) {
	var (
		all    []Transaction
		cursor string
	)
	for {
		path := "/v1/accounts/" + account + "/transactions?limit=100"
		if cursor != "" {
			path += "&starting_after=" + cursor
		}
		req, err := c.newRequest(ctx, http.MethodGet, path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, fmt.Errorf("list transactions: %w", err)
		}
		var page txPage
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		all = append(all, page.Data...)
		// An empty cursor marks the last page.
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	return all, nil
}

// UpdateMetadata patches the metadata of a charge. opKey identifies the
// logical operation; the caller keeps it across its own retries.
func (c *Client) UpdateMetadata(ctx context.Context, chargeID, opKey string, md map[string]string) error {
	body, err := json.Marshal(map[string]any{"metadata": md})
	if err != nil {
		return err
	}
	wait := 150 * time.Millisecond
	for i := 0; i < 3; i++ {
		permit, ok := c.breaker.Admit()
		if !ok {
			return budget.ErrBreakerOpen
		}
		req, err := c.newRequest(ctx, http.MethodPatch, "/v1/charges/"+chargeID, body)
		if err != nil {
			return err
		}
		req.Header.Set("X-Idempotency-Key", opKey)
		resp, err := c.hc.Do(req)
		permit.Done(err)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 300 {
				return nil
			}
			err = &statusError{Code: resp.StatusCode}
		}
		if i == 2 {
			return err
		}
		// Full jitter: anywhere in [0, wait).
		if err := budget.Sleep(ctx, rand.N(wait)); err != nil {
			return err
		}
		wait *= 2
	}
	return nil
}

// GetCharge reads a charge. The wait is a constant plus random jitter.
func (c *Client) GetCharge(ctx context.Context, id string) (ChargeResult, error) {
	var lastErr error
	for range 3 {
		if err := ctx.Err(); err != nil {
			return ChargeResult{}, err
		}
		if lastErr != nil && !c.budget.Allow() {
			break
		}
		req, err := c.newRequest(ctx, http.MethodGet, "/v1/charges/"+id, nil)
		if err != nil {
			return ChargeResult{}, err
		}
		resp, err := c.hc.Do(req)
		c.budget.Record(err)
		if err != nil {
			lastErr = err
			time.Sleep(300*time.Millisecond + rand.N(200*time.Millisecond))
			continue
		}
		var res ChargeResult
		err = json.NewDecoder(resp.Body).Decode(&res)
		resp.Body.Close()
		return res, err
	}
	return ChargeResult{}, lastErr
}

// WaitSettled polls a charge until the processor settles it. Errors are
// not retried: the caller decides.
func (c *Client) WaitSettled(ctx context.Context, id string) error {
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		res, err := c.GetCharge(ctx, id)
		if err != nil {
			return err
		}
		if res.Status == "settled" {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}
