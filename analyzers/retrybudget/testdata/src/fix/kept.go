package fix

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

type Stock struct{ db *sql.DB }

// Negative: the failure is kept after the wait, where a guard before the
// wait would leave without it: the code after the loop would return
// nil, a success, when the budget refuses the first retry.
func (s *Stock) Count(ctx context.Context, sku string) (int, error) {
	var lastErr error
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		var n int
		err := s.db.QueryRowContext(ctx, "SELECT count FROM stock WHERE sku = $1", sku).Scan(&n)
		if err == nil {
			return n, nil
		}
		time.Sleep(time.Duration(i) * 100 * time.Millisecond)
		lastErr = err
	}
	return 0, lastErr
}

// The failure kept before the wait is there when the guard leaves.
func (s *Stock) Reserved(ctx context.Context, sku string) (int, error) {
	var lastErr error
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		var n int
		err := s.db.QueryRowContext(ctx, "SELECT reserved FROM stock WHERE sku = $1", sku).Scan(&n)
		if err == nil {
			return n, nil
		}
		lastErr = err
		time.Sleep(time.Duration(i) * 100 * time.Millisecond)
	}
	return 0, lastErr
}

// Negative: the failures are kept in a list only after the wait; the
// code after the loop joins them, which is nil when the budget refuses
// the first retry.
func (s *Stock) Sold(ctx context.Context, sku string) (int, error) {
	var errs []error
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		var n int
		err := s.db.QueryRowContext(ctx, "SELECT sold FROM stock WHERE sku = $1", sku).Scan(&n)
		if err == nil {
			return n, nil
		}
		time.Sleep(time.Duration(i) * 100 * time.Millisecond)
		errs = append(errs, err)
	}
	return 0, errors.Join(errs...)
}
