package broker

import (
	"context"
	"time"
)

const (
	writeBackoffMin = 100 * time.Millisecond
	writeBackoffMax = time.Second
)

// backoff is a capped quadratic backoff (the kafka-go writer shape).
func backoff(attempt int, min, max time.Duration) time.Duration {
	d := time.Duration(attempt*attempt) * min
	if d > max {
		d = max
	}
	return d
}

func sleep(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// Writer produces batches.
type Writer struct {
	conn        *Conn
	maxAttempts int
}

// WriteMessages retries a failed batch, waiting before each retry.
func (w *Writer) WriteMessages(ctx context.Context, msgs ...Message) error {
	var err error
	for attempt := 0; attempt < w.maxAttempts; attempt++ {
		if attempt != 0 {
			if !sleep(ctx, backoff(attempt, writeBackoffMin, writeBackoffMax)) {
				return ctx.Err()
			}
		}
		if err = w.conn.Send(ctx, msgs); err == nil {
			return nil
		}
	}
	return err
}
