package etl

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Settlement is one line of the PSP's settlement report.
type Settlement struct {
	PaymentID string `json:"payment_id"`
	Cents     int64  `json:"amount"`
}

type settlementPage struct {
	Items []Settlement `json:"items"`
	Next  string       `json:"next_cursor"`
}

// Adjustment corrects a mismatch between the ledger and the PSP.
type Adjustment struct {
	ID        string `json:"id"`
	PaymentID string `json:"payment_id"`
	Delta     int64  `json:"delta"`
}

// ProviderClient talks to the payment service provider.
type ProviderClient struct {
	HC     *http.Client
	Base   string
	Budget *budget.Adaptive
}

// Settlements returns one page of the day's settlements.
func (p *ProviderClient) Settlements(ctx context.Context, day, cursor string) (settlementPage, error) {
	u := p.Base + "/v1/settlements?day=" + url.QueryEscape(day) + "&cursor=" + url.QueryEscape(cursor)
	seq := budget.Backoff{Base: 200 * time.Millisecond}.Start()
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 && !p.Budget.Allow() {
			break
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return settlementPage{}, err
		}
		resp, err := p.HC.Do(req)
		p.Budget.Record(err)
		if err != nil {
			lastErr = err
			if err := budget.Sleep(ctx, seq.Next()); err != nil {
				return settlementPage{}, err
			}
			continue
		}
		wait := time.Duration(0)
		switch {
		case resp.StatusCode == http.StatusOK:
			var page settlementPage
			err := json.NewDecoder(resp.Body).Decode(&page)
			resp.Body.Close()
			return page, err
		case resp.StatusCode == http.StatusTooManyRequests:
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
				wait = time.Duration(s) * time.Second
			}
		case resp.StatusCode >= 500:
			wait = seq.Next()
		default:
			resp.Body.Close()
			return settlementPage{}, fmt.Errorf("settlements: status %d", resp.StatusCode)
		}
		resp.Body.Close()
		lastErr = fmt.Errorf("settlements: status %d", resp.StatusCode)
		if err := budget.Sleep(ctx, wait); err != nil {
			return settlementPage{}, err
		}
	}
	return settlementPage{}, fmt.Errorf("settlements %s: %w", day, lastErr)
}

// PostAdjustment books a correction at the PSP. The adjustment's own ID is
// the idempotency key.
func (p *ProviderClient) PostAdjustment(ctx context.Context, adj Adjustment) error {
	body, err := json.Marshal(adj)
	if err != nil {
		return err
	}
	key := "adj-" + adj.ID
	seq := budget.Backoff{}.Start()
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.Base+"/v1/adjustments", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", key)
		resp, err := p.HC.Do(req)
		p.Budget.Record(err)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 300 {
				return nil
			}
			if resp.StatusCode < 500 {
				return fmt.Errorf("adjustment %s: status %d", adj.ID, resp.StatusCode)
			}
			err = fmt.Errorf("adjustment %s: status %d", adj.ID, resp.StatusCode)
		}
		if attempt >= 3 || !p.Budget.Allow() {
			return err
		}
		if err := budget.Sleep(ctx, seq.Next()); err != nil {
			return err
		}
	}
}

// Capture captures a payment that was authorised but never captured. It
// runs from the nightly job, which has no request context.
func (p *ProviderClient) Capture(paymentID string, cents int64) error {
	ctx := context.Background()
	body, _ := json.Marshal(map[string]any{"amount": cents})
	key := budget.NewIdempotencyKey()
	seq := budget.Backoff{}.Start()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !p.Budget.Allow() {
				break
			}
			if err := budget.Sleep(ctx, seq.Next()); err != nil {
				return err
			}
		}
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, p.Base+"/v1/payments/"+url.PathEscape(paymentID)+"/capture", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("X-Idempotency-Key", key)
		var resp *http.Response
		resp, err = http.DefaultClient.Do(req)
		p.Budget.Record(err)
		if err != nil {
			continue
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			return fmt.Errorf("capture %s: status %d", paymentID, resp.StatusCode)
		}
		return nil
	}
	return fmt.Errorf("capture %s: %w", paymentID, err)
}

// Mismatch is a payment whose ledger amount differs from the PSP's.
type Mismatch struct {
	PaymentID    string
	Ledger, PSP  int64
	AdjustmentID string
}

// Reconcile compares a day's settlements with the ledger and books an
// adjustment for every difference.
func Reconcile(ctx context.Context, db *sql.DB, psp *ProviderClient, day string) ([]Mismatch, error) {
	var out []Mismatch
	cursor := ""
	for {
		page, err := psp.Settlements(ctx, day, cursor)
		if err != nil {
			return out, err
		}
		for _, s := range page.Items {
			var ledger int64
			err := db.QueryRowContext(ctx, `SELECT cents FROM payments WHERE id = $1`, s.PaymentID).Scan(&ledger)
			if errors.Is(err, sql.ErrNoRows) {
				ledger = 0
			} else if err != nil {
				return out, fmt.Errorf("ledger %s: %w", s.PaymentID, err)
			}
			if ledger == s.Cents {
				continue
			}
			adj := Adjustment{ID: day + "-" + s.PaymentID, PaymentID: s.PaymentID, Delta: s.Cents - ledger}
			if err := psp.PostAdjustment(ctx, adj); err != nil {
				return out, err
			}
			out = append(out, Mismatch{PaymentID: s.PaymentID, Ledger: ledger, PSP: s.Cents, AdjustmentID: adj.ID})
		}
		if page.Next == "" {
			return out, nil
		}
		cursor = page.Next
	}
}
