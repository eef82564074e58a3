package fix

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

var errNotFound = errors.New("not found")

type Orders struct{ db *sql.DB }

// A lookup that gives up at once on "no rows": only the failures that go
// round are recorded, so not-found lookups never spend the budget.
func (o *Orders) Name(ctx context.Context, id int) (string, error) {
	var lastErr error
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		var name string
		err := o.db.QueryRowContext(ctx, "SELECT name FROM orders WHERE id = $1", id).Scan(&name)
		if err == nil {
			return name, nil
		}
		if errors.Is(err, sql.ErrNoRows) {
			return "", errNotFound
		}
		lastErr = err
		time.Sleep(time.Duration(i) * 100 * time.Millisecond)
	}
	return "", lastErr
}

// No success branch to record in, and a failure that returns on the way:
// recording right after the call would spend tokens on it. No fix.
func (o *Orders) Touch(ctx context.Context, id int) error {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		_, err := o.db.ExecContext(ctx, "UPDATE orders SET touched = now() WHERE id = $1", id)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotFound
		}
		if err == nil || errors.Is(err, context.Canceled) {
			return err
		}
		time.Sleep(time.Duration(i) * 100 * time.Millisecond)
	}
	return errors.New("gave up")
}
