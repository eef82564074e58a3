// Package etl copies ledger entries from the OLTP database to the
// warehouse in checkpointed batches, and reconciles payments with the PSP.
package etl

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Row is one ledger entry.
type Row struct {
	ID        string
	Account   string
	Cents     int64
	Timestamp time.Time
}

// Job is one ETL run.
type Job struct {
	src, dst       *sql.DB
	checkpointPath string
	batch          int
}

// NewJob returns a job that checkpoints to path.
func NewJob(src, dst *sql.DB, path string) *Job {
	return &Job{src: src, dst: dst, checkpointPath: path, batch: 1000}
}

// Run copies everything after the last checkpoint.
func (j *Job) Run(ctx context.Context) (copied int, err error) {
	cursor, err := j.loadCheckpoint()
	if err != nil {
		return 0, err
	}
	for {
		rows, next, err := j.extract(ctx, cursor)
		if err != nil {
			return copied, fmt.Errorf("extract after %q: %w", cursor, err)
		}
		if len(rows) == 0 {
			return copied, nil
		}
		if err := j.load(ctx, rows); err != nil {
			return copied, fmt.Errorf("load batch after %q: %w", cursor, err)
		}
		copied += len(rows)
		cursor = next
		if err := j.saveCheckpoint(cursor); err != nil {
			return copied, err
		}
	}
}

func (j *Job) extract(ctx context.Context, after string) (out []Row, next string, err error) {
	rows, err := j.src.QueryContext(ctx,
		`SELECT id, account, cents, ts FROM ledger WHERE id > $1 ORDER BY id LIMIT $2`, after, j.batch)
	if err != nil {
		return nil, "", err
	}
	defer func() {
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
	}()
	for rows.Next() {
		var r Row
		if err = rows.Scan(&r.ID, &r.Account, &r.Cents, &r.Timestamp); err != nil {
			return nil, "", err
		}
		out = append(out, r)
		next = r.ID
	}
	return out, next, rows.Err()
}

type stater interface{ SQLState() string }

func retryableLoad(err error) bool {
	var s stater
	return errors.As(err, &s) && strings.HasPrefix(s.SQLState(), "40")
}

// load writes one batch in a transaction, replaying it when the warehouse
// aborts it for a serialization conflict.
func (j *Job) load(ctx context.Context, rows []Row) (err error) {
	delay := 250 * time.Millisecond
	for attempt := 1; attempt <= 5; attempt++ {
		err = j.loadOnce(ctx, rows)
		if err == nil || !retryableLoad(err) {
			return err
		}
		// Conflicts clear up quickly; wait a little longer each time.
		time.Sleep(delay)
		delay *= 2
	}
	return fmt.Errorf("load: giving up after 5 attempts: %w", err)
}

func (j *Job) loadOnce(ctx context.Context, rows []Row) (err error) {
	tx, err := j.dst.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	stmt, err := tx.PrepareContext(ctx,
		`INSERT INTO fact_ledger (id, account, cents, ts) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, r := range rows {
		if _, err = stmt.ExecContext(ctx, r.ID, r.Account, r.Cents, r.Timestamp); err != nil {
			return fmt.Errorf("insert %s: %w", r.ID, err)
		}
	}
	return tx.Commit()
}

func (j *Job) loadCheckpoint() (string, error) {
	b, err := os.ReadFile(j.checkpointPath)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	return strings.TrimSpace(string(b)), err
}

// saveCheckpoint writes the cursor atomically. On some filesystems the
// rename fails while a backup agent holds the file open, so it is tried a
// few times.
func (j *Job) saveCheckpoint(cursor string) error {
	tmp, err := os.CreateTemp(filepath.Dir(j.checkpointPath), ".checkpoint-*")
	if err != nil {
		return err
	}
	if _, err := tmp.WriteString(cursor + "\n"); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	for i := 0; i < 5; i++ {
		err = os.Rename(tmp.Name(), j.checkpointPath)
		if err == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	os.Remove(tmp.Name())
	return fmt.Errorf("save checkpoint: %w", err)
}
