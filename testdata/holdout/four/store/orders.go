// Package store holds the database/sql repositories of the order service.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/retrylint/retrylint/budget"
)

const maxAttempts = 3

// ErrNotFound is returned when a row does not exist.
var ErrNotFound = errors.New("store: not found")

// Order is one row of the orders table.
type Order struct {
	ID         int64
	CustomerID int64
	Status     string
	AmountCent int64
	CreatedAt  time.Time
}

// OrderRepo reads and writes orders.
type OrderRepo struct {
	db     *sql.DB
	budget *budget.Adaptive // shared by every call to the primary
}

// NewOrderRepo wraps db.
func NewOrderRepo(db *sql.DB) *OrderRepo {
	return &OrderRepo{db: db, budget: new(budget.Adaptive)}
}

// Get loads one order, retrying when the pool hands out a dead connection.
func (r *OrderRepo) Get(ctx context.Context, id int64) (Order, error) {
	var o Order
	var err error
	for attempt := range maxAttempts {
		err = r.db.QueryRowContext(ctx,
			`SELECT id, customer_id, status, amount_cents, created_at FROM orders WHERE id = $1`, id).
			Scan(&o.ID, &o.CustomerID, &o.Status, &o.AmountCent, &o.CreatedAt)
		if err == nil {
			return o, nil
		}
		if errors.Is(err, sql.ErrNoRows) {
			return Order{}, ErrNotFound
		}
		if !errors.Is(err, driver.ErrBadConn) {
			return Order{}, fmt.Errorf("get order %d (attempt %d): %w", id, attempt+1, err)
		}
		// The pool will discard the bad conn; give it a moment.
		time.Sleep(50 * time.Millisecond)
	}
	return Order{}, fmt.Errorf("get order %d: %w", id, err)
}

// sqlStater is implemented by the errors of most Postgres drivers.
type sqlStater interface{ SQLState() string }

func isSerializationFailure(err error) bool {
	var s sqlStater
	return errors.As(err, &s) && (s.SQLState() == "40001" || s.SQLState() == "40P01")
}

// Transfer moves an amount between two accounts in a SERIALIZABLE
// transaction, replaying it when the database aborts it.
func (r *OrderRepo) Transfer(ctx context.Context, from, to int64, cents int64) (err error) {
	seq := budget.Backoff{Base: 20 * time.Millisecond, Cap: time.Second}.Start()
	for attempt := 1; attempt <= 5; attempt++ {
		err = r.transferOnce(ctx, from, to, cents)
		r.budget.Record(err)
		if err == nil || !isSerializationFailure(err) {
			return err
		}
		if !r.budget.Allow() {
			return fmt.Errorf("transfer: retry budget exhausted: %w", err)
		}
		if werr := budget.Sleep(ctx, seq.Next()); werr != nil {
			return errors.Join(err, werr)
		}
	}
	return fmt.Errorf("transfer: still conflicting after 5 attempts: %w", err)
}

func (r *OrderRepo) transferOnce(ctx context.Context, from, to int64, cents int64) error {
	tx, err := r.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	defer tx.Rollback() // no-op after Commit
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance - $1 WHERE id = $2`, cents, from); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = balance + $1 WHERE id = $2`, cents, to); err != nil {
		return err
	}
	return tx.Commit()
}

// MarkShipped flags every order in ids as shipped.
func (r *OrderRepo) MarkShipped(ctx context.Context, ids []int64) error {
	for _, id := range ids {
		if _, err := r.db.ExecContext(ctx, `UPDATE orders SET status = 'shipped' WHERE id = $1`, id); err != nil {
			return fmt.Errorf("mark order %d shipped: %w", id, err)
		}
	}
	return nil
}

// Archive deletes orders older than before in chunks of 1000 so that no
// single statement holds locks for long.
func (r *OrderRepo) Archive(ctx context.Context, before time.Time) (deleted int64, err error) {
	for {
		res, err := r.db.ExecContext(ctx,
			`DELETE FROM orders WHERE id IN (SELECT id FROM orders WHERE created_at < $1 LIMIT 1000)`, before)
		if err != nil {
			return deleted, fmt.Errorf("archive: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return deleted, err
		}
		deleted += n
		if n == 0 {
			return deleted, nil
		}
	}
}

// UpdateStatus sets an order's status, retrying on broken connections.
func (r *OrderRepo) UpdateStatus(ctx context.Context, id int64, status string) error {
	delay := 20 * time.Millisecond
	var lastErr error
	for i := 0; i < 4; i++ {
		_, err := r.db.ExecContext(ctx, `UPDATE orders SET status = $1 WHERE id = $2`, status, id)
		if err == nil {
			return nil
		}
		if !errors.Is(err, driver.ErrBadConn) {
			return fmt.Errorf("update order %d: %w", id, err)
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		delay *= 2
	}
	return fmt.Errorf("update order %d: giving up: %w", id, lastErr)
}

// CountPending counts orders waiting for payment.
func (r *OrderRepo) CountPending(ctx context.Context) (int, error) {
	return withRetry(ctx, 3, 100*time.Millisecond, func(ctx context.Context) (int, error) {
		var n int
		err := r.db.QueryRowContext(ctx, `SELECT count(*) FROM orders WHERE status = 'pending'`).Scan(&n)
		return n, err
	})
}
