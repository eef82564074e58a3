// Package store is a database/sql repository in the shape of pgx and
// sqlx based data layers.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"log"
	"strings"
	"time"

	"example.com/corpus/internal/throttle"
	"github.com/retrylint/retrylint/budget"
)

// Store is the orders repository.
type Store struct {
	db       *sql.DB
	replicas []*sql.DB
	retries  *budget.Adaptive
	limiter  *throttle.Limiter
	backoff  budget.Backoff
}

// Order is an order row.
type Order struct {
	ID     int64
	Status string
}

// Open waits for the database to come up.
func Open(dsn string) (*Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	ready := false
	for !ready {
		if err := db.PingContext(context.Background()); err != nil {
			log.Printf("store: waiting for database: %v", err)
			time.Sleep(2 * time.Second)
			continue
		}
		ready = true
	}
	return &Store{db: db}, nil
}

func isTransient(err error) bool {
	return strings.Contains(err.Error(), "connection reset")
}

// SaveOrder retries transient errors with a linearly growing delay.
func (s *Store) SaveOrder(ctx context.Context, o Order) error {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		_, err = s.db.ExecContext(ctx, `INSERT INTO orders (id, status) VALUES ($1, $2) ON CONFLICT DO NOTHING`, o.ID, o.Status)
		if err == nil {
			return nil
		}
		if !isTransient(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt) * 100 * time.Millisecond):
		}
	}
	return err
}

// exec re-runs a statement at once when the pooled connection was bad.
func (s *Store) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	var res sql.Result
	var err error
	for i := 0; i < 3; i++ {
		res, err = s.db.ExecContext(ctx, q, args...)
		if !errors.Is(err, driver.ErrBadConn) {
			return res, err
		}
	}
	return res, err
}

// MarkShipped uses exec.
func (s *Store) MarkShipped(ctx context.Context, id int64) error {
	_, err := s.exec(ctx, `UPDATE orders SET status = 'shipped' WHERE id = $1`, id)
	return err
}

// ReadOrder reads from the first replica that answers.
func (s *Store) ReadOrder(ctx context.Context, id int64) (Order, error) {
	lastErr := errors.New("store: no replicas")
	for _, r := range s.replicas {
		var o Order
		err := r.QueryRowContext(ctx, `SELECT id, status FROM orders WHERE id = $1`, id).Scan(&o.ID, &o.Status)
		if err == nil {
			return o, nil
		}
		lastErr = err
	}
	return Order{}, lastErr
}

// ListOrders scans every row.
func (s *Store) ListOrders(ctx context.Context) ([]Order, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, status FROM orders`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Order
	for rows.Next() {
		var o Order
		if err := rows.Scan(&o.ID, &o.Status); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

func isSerializationFailure(err error) bool {
	return strings.Contains(err.Error(), "40001")
}

func (s *Store) runTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// InTx retries serialization failures under the shared retry budget.
func (s *Store) InTx(ctx context.Context, fn func(*sql.Tx) error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !s.retries.Allow() {
				return err
			}
			if werr := budget.Sleep(ctx, s.backoff.Delay(attempt-1)); werr != nil {
				return werr
			}
		}
		err = s.runTx(ctx, fn)
		s.retries.Record(err)
		if err == nil || !isSerializationFailure(err) {
			return err
		}
	}
	return err
}

// InTxLimited retries under the in-house limiter named in the
// configuration (-retrybudget.budget-funcs).
func (s *Store) InTxLimited(ctx context.Context, fn func(*sql.Tx) error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if attempt > 0 {
			if !s.limiter.Allow() {
				return err
			}
			if werr := budget.Sleep(ctx, s.backoff.Delay(attempt-1)); werr != nil {
				return werr
			}
		}
		err = s.runTx(ctx, fn)
		if err == nil || !isSerializationFailure(err) {
			return err
		}
	}
	return err
}

// Upsert decides on the error with a switch, retrying transient errors a
// fixed 200ms apart.
func (s *Store) Upsert(ctx context.Context, o Order) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		_, err = s.db.ExecContext(ctx, `INSERT INTO orders (id, status) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET status = $2`, o.ID, o.Status)
		switch {
		case err == nil:
			return nil
		case isTransient(err):
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(200 * time.Millisecond):
			}
			continue
		default:
			return err
		}
	}
	return err
}
