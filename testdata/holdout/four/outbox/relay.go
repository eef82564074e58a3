// Package outbox relays rows of the transactional outbox table to the
// message broker's HTTP ingest endpoint.
package outbox

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Event is one outbox row.
type Event struct {
	ID      string
	Topic   string
	Payload []byte
}

// Source streams change events (for instance from logical replication).
type Source interface {
	Next(ctx context.Context) ([]Event, error)
}

// Relay moves events from the outbox table to the broker.
type Relay struct {
	db         *sql.DB
	hc         *http.Client
	brokerURL  string
	webhookURL string
	interval   time.Duration
	budget     *budget.Adaptive
	src        Source
}

// NewRelay builds a relay with a 10 s per-request timeout.
func NewRelay(db *sql.DB, brokerURL, webhookURL string) *Relay {
	return &Relay{
		db:         db,
		hc:         &http.Client{Timeout: 10 * time.Second},
		brokerURL:  brokerURL,
		webhookURL: webhookURL,
		interval:   time.Second,
		budget:     new(budget.Adaptive),
	}
}

// Run relays pending events every interval until ctx is done.
func (r *Relay) Run(ctx context.Context) error {
	ticker := time.NewTicker(r.interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
		n, err := r.relayOnce(ctx)
		if err != nil {
			// The rows stay pending; the next tick picks them up.
			log.Printf("outbox: relay: %v", err)
			continue
		}
		if n > 0 {
			log.Printf("outbox: relayed %d events", n)
		}
	}
}

func (r *Relay) relayOnce(ctx context.Context) (int, error) {
	rows, err := r.db.QueryContext(ctx,
		`SELECT id, topic, payload FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT 100`)
	if err != nil {
		return 0, fmt.Errorf("load outbox: %w", err)
	}
	var events []Event
	for rows.Next() {
		var ev Event
		if err := rows.Scan(&ev.ID, &ev.Topic, &ev.Payload); err != nil {
			rows.Close()
			return 0, err
		}
		events = append(events, ev)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	sent := 0
	for _, ev := range events {
		if err := r.publish(ctx, ev); err != nil {
			return sent, fmt.Errorf("publish %s: %w", ev.ID, err)
		}
		if _, err := r.db.ExecContext(ctx, `UPDATE outbox SET sent_at = now() WHERE id = $1`, ev.ID); err != nil {
			return sent, err
		}
		sent++
	}
	return sent, nil
}

// errPermanent marks a broker rejection that no retry will fix.
var errPermanent = errors.New("broker rejected event")

// publish posts one event to the broker. The event ID is the idempotency
// key, so a replay after a lost response is deduplicated by the broker.
func (r *Relay) publish(ctx context.Context, ev Event) error {
	seq := budget.Backoff{Base: 50 * time.Millisecond, Cap: 2 * time.Second}.Start()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !r.budget.Allow() {
				break
			}
			if werr := budget.Sleep(ctx, seq.Next()); werr != nil {
				return werr
			}
		}
		err = r.publishOnce(ctx, ev)
		r.budget.Record(err)
		if err == nil || errors.Is(err, errPermanent) {
			return err
		}
	}
	return err
}

func (r *Relay) publishOnce(ctx context.Context, ev Event) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.brokerURL+"/topics/"+ev.Topic, bytes.NewReader(ev.Payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", ev.ID)
	resp, err := r.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode < 300:
		return nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return fmt.Errorf("broker: status %d", resp.StatusCode)
	default:
		return fmt.Errorf("%w: status %d", errPermanent, resp.StatusCode)
	}
}

// NotifyWebhook tells the partner's webhook that an order changed.
func (r *Relay) NotifyWebhook(ctx context.Context, ev Event) error {
	delay := 100 * time.Millisecond
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.webhookURL, bytes.NewReader(ev.Payload))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := r.hc.Do(req)
		if err == nil {
			code := resp.StatusCode
			resp.Body.Close()
			if code < 300 {
				return nil
			}
			if code < 500 {
				return fmt.Errorf("webhook: status %d", code)
			}
			err = fmt.Errorf("webhook: status %d", code)
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		delay *= 2
	}
	return fmt.Errorf("webhook: giving up: %w", lastErr)
}

// Tail follows the change stream and publishes every event it yields.
func (r *Relay) Tail(ctx context.Context) error {
	for {
		evs, err := r.src.Next(ctx)
		if err != nil {
			log.Printf("outbox: change stream: %v", err)
			time.Sleep(time.Second)
			continue
		}
		for _, ev := range evs {
			if err := r.publish(ctx, ev); err != nil {
				return err
			}
		}
	}
}
