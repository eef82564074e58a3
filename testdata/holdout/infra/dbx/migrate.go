package dbx

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"log"
	"slices"
	"time"
)

// Migration is one schema change, applied in version order.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// WaitForDB blocks until the database answers a ping, so that a migration
// job started next to the database does not crash-loop while it boots.
func WaitForDB(ctx context.Context, db *sql.DB) error {
	for {
		err := db.PingContext(ctx)
		if err == nil {
			return nil
		}
		log.Printf("dbx: database not ready: %v", err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("dbx: gave up waiting for database: %w", ctx.Err())
		case <-time.After(2 * time.Second):
		}
	}
}

// Open opens the pool and waits, with a growing pause, until the database
// accepts connections; it gives up after five attempts.
func Open(ctx context.Context, driver, dsn string) (*sql.DB, error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, err
	}
	delay := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err = db.PingContext(pctx)
		cancel()
		if err == nil {
			return db, nil
		}
		if attempt == 5 {
			db.Close()
			return nil, fmt.Errorf("dbx: %s unreachable after %d attempts: %w", driver, attempt, err)
		}
		select {
		case <-ctx.Done():
			db.Close()
			return nil, ctx.Err()
		case <-time.After(delay):
		}
		delay *= 2
	}
}

// Migrate applies every migration newer than the recorded schema version,
// each in its own transaction.
func Migrate(ctx context.Context, db *sql.DB, migrations []Migration) error {
	var current int
	err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current)
	if err != nil {
		return fmt.Errorf("dbx: read schema version: %w", err)
	}
	slices.SortFunc(migrations, func(a, b Migration) int { return cmp.Compare(a.Version, b.Version) })
	for _, m := range migrations {
		if m.Version <= current {
			continue // already applied
		}
		err := RunInTxWithBackoff(ctx, db, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx,
				`INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name)
			return err
		})
		if err != nil {
			return fmt.Errorf("dbx: migration %d (%s): %w", m.Version, m.Name, err)
		}
		log.Printf("dbx: applied migration %d %s", m.Version, m.Name)
	}
	return nil
}
