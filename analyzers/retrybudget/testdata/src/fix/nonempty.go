package fix

import (
	"context"
	"database/sql"
	"time"
)

type Queue struct{ db *sql.DB }

// A success that leaves only with a count: one without goes round past
// the guard, so the outcome is recorded right after the call, not as a
// failure at the guard.
func (q *Queue) Depth(ctx context.Context) (int, error) {
	var lastErr error
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		var n int
		err := q.db.QueryRowContext(ctx, "SELECT count(*) FROM jobs").Scan(&n)
		if err == nil && n >= 0 {
			return n, nil
		}
		lastErr = err
		time.Sleep(time.Duration(i) * 100 * time.Millisecond)
	}
	return 0, lastErr
}

// A success branch that tests more than the error, which every success
// takes (the row beside a nil error is there): the success is recorded
// where it leaves.
func (q *Queue) Head(ctx context.Context) (*sql.Row, error) {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		row, err := q.first(ctx)
		if row != nil && err == nil {
			return row, nil
		}
		time.Sleep(time.Duration(i) * 100 * time.Millisecond)
	}
	return nil, sql.ErrConnDone
}

func (q *Queue) first(ctx context.Context) (*sql.Row, error) {
	row := q.db.QueryRowContext(ctx, "SELECT id FROM jobs LIMIT 1")
	return row, row.Err()
}
