package a

import (
	"context"
	"database/sql"
	"time"
)

// database/sql's methods without a context run under context.Background:
// a hung server holds each attempt, and nothing bounds the loop in time.
func waitDB(db *sql.DB) error {
	var err error
	for i := 0; i < 10; i++ { // want `retry loop runs without a deadline`
		if err = db.Ping(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// The same inside a literal called at once each round.
func waitQuery(dsn string) error {
	for i := 0; i < 10; i++ { // want `retry loop runs without a deadline`
		err := func() error {
			db, err := sql.Open("postgres", dsn)
			if err != nil {
				return err
			}
			defer db.Close()
			var s string
			return db.QueryRow("SELECT 1").Scan(&s)
		}()
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// Look-alikes: the caller's context, in the call or in the literal.
func waitDBCtx(ctx context.Context, db *sql.DB) error {
	var err error
	for i := 0; i < 10; i++ {
		if err = db.PingContext(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

func waitQueryCtx(ctx context.Context, db *sql.DB) error {
	for i := 0; i < 10; i++ {
		err := func() error {
			var s string
			return db.QueryRowContext(ctx, "SELECT 1").Scan(&s)
		}()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil
}

// Look-alike: a transaction's commit, retried while the database is busy,
// runs under the context the transaction was begun with.
func commitBusy(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for i := 0; i < 10; i++ {
		if err = tx.Commit(); err == nil {
			return nil
		}
	}
	return err
}

// The same in a generic helper: its call hands the commit on.
func busyRetry(fn func() error) error {
	var err error
	for i := 0; i < 10; i++ {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

func commitHelper(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	return busyRetry(func() error { return tx.Commit() })
}
