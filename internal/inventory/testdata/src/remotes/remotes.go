// Package remotes retries one operation of each remote kind the
// inventory names: an HTTP write to a literal URL, a SQL statement and
// a gRPC method.
package remotes

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"time"

	"remotes/pb"
)

// Post retries a keyed POST with a doubling delay capped at 2s.
func Post(ctx context.Context, hc *http.Client, key string) error {
	delay := 100 * time.Millisecond
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, "POST", "https://ledger.example.com/v1/transfers", nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		delay *= 2
		if delay > 2*time.Second {
			delay = 2 * time.Second
		}
	}
	return errors.New("give up")
}

// Exec retries a SQL statement.
func Exec(ctx context.Context, db *sql.DB) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = db.ExecContext(ctx, "UPDATE accounts SET balance = balance - 1"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Call retries a gRPC method.
func Call(ctx context.Context, c pb.LedgerClient) error {
	var err error
	for i := 0; i < 4; i++ {
		if _, err = c.GetBalance(ctx, &pb.Req{}); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
