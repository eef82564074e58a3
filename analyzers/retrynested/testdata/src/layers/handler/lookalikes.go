package handler

import (
	"context"
	"database/sql"
	"time"

	"layers/transport"
)

// SQL retries a statement; database/sql's own retry of a dead pooled
// connection is a failover, not a layer: silent.
func (h *H) SQL(ctx context.Context, db *sql.DB) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = db.ExecContext(ctx, "UPDATE t SET n = n + 1"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Local retries local work that retries: no dependency takes the load.
func (h *H) Local(try func() (int, error)) (int, error) {
	var err error
	for i := 0; i < 3; i++ {
		var n int
		if n, err = transport.Prime(try); err == nil {
			return n, nil
		}
		time.Sleep(time.Millisecond)
	}
	return 0, err
}
