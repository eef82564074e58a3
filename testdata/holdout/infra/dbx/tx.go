// Package dbx holds the database plumbing shared by our services: opening
// the pool, running transactions that are replayed on serialization
// failures, and applying schema migrations at startup.
package dbx

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// SQLState is implemented by driver errors that carry a SQLSTATE code
// (pgconn.PgError and friends).
type SQLState interface {
	SQLState() string
}

// Serialization failure and deadlock: both abort the whole transaction and
// both are safe to replay from the start.
const (
	codeSerializationFailure = "40001"
	codeDeadlockDetected     = "40P01"
)

// IsRetryable reports whether err means the transaction can be run again.
func IsRetryable(err error) bool {
	var st SQLState
	if !errors.As(err, &st) {
		return false
	}
	switch st.SQLState() {
	case codeSerializationFailure, codeDeadlockDetected:
		return true
	}
	return false
}

// maxTxAttempts bounds how often one transaction is replayed.
const maxTxAttempts = 5

// RunInTx runs fn inside a serializable transaction, replaying the whole
// transaction when the database aborts it with a serialization failure.
func RunInTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) (err error) {
	for attempt := 0; attempt < maxTxAttempts; attempt++ {
		err = runOnce(ctx, db, fn)
		if err == nil || !IsRetryable(err) {
			return err
		}
		// Conflict with a concurrent writer: go again straight away, the
		// other transaction has committed by now.
	}
	return fmt.Errorf("dbx: transaction aborted %d times: %w", maxTxAttempts, err)
}

// runOnce runs fn in one transaction, rolling back on any error.
func runOnce(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) (err error) {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if err = fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// txBudget is shared by every transaction replay in the process.
var txBudget budget.Adaptive

// txBackoff spaces replays so two conflicting writers stop colliding.
var txBackoff = budget.Backoff{Base: 20 * time.Millisecond, Cap: time.Second}

// RunInTxWithBackoff is RunInTx for hot rows: replays wait a jittered,
// growing pause and stop when the process-wide replay budget is spent.
func RunInTxWithBackoff(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	seq := txBackoff.Start()
	var err error
	for attempt := range maxTxAttempts {
		if attempt > 0 {
			if !txBudget.Allow() {
				return fmt.Errorf("dbx: replay budget exhausted: %w", err)
			}
			if serr := budget.Sleep(ctx, seq.Next()); serr != nil {
				return serr
			}
		}
		err = runOnce(ctx, db, fn)
		txBudget.Record(err)
		if err == nil || !IsRetryable(err) {
			return err
		}
	}
	return err
}
