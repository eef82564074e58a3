// Package coord holds cluster coordination: leader election, distributed
// locks and service discovery.
package coord

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// LeaseStore is the coordination backend (etcd, Consul, a SQL table).
type LeaseStore interface {
	TryAcquire(ctx context.Context, key, holder string, ttl time.Duration) (bool, error)
	Renew(ctx context.Context, key, holder string, ttl time.Duration) error
	Release(ctx context.Context, key, holder string) error
}

// Elector campaigns for one lease.
type Elector struct {
	Store       LeaseStore
	Key, ID     string
	TTL         time.Duration
	RetryPeriod time.Duration
}

// Campaign blocks until this instance holds the lease or ctx ends.
func (e *Elector) Campaign(ctx context.Context) error {
	for {
		ok, err := e.Store.TryAcquire(ctx, e.Key, e.ID, e.TTL)
		if err != nil {
			return fmt.Errorf("coord: campaign %s: %w", e.Key, err)
		}
		if ok {
			return nil
		}
		// Someone else leads; look again a little after their renew period.
		wait := e.RetryPeriod + rand.N(e.RetryPeriod/2+1)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// highestTerm is the highest leadership term observed; a leader whose term
// is lower is stale and must step down.
var highestTerm atomic.Int64

// observeTerm records term if it is newer than any seen so far and reports
// whether it was.
func observeTerm(term int64) bool {
	for {
		cur := highestTerm.Load()
		if term <= cur {
			return false
		}
		if highestTerm.CompareAndSwap(cur, term) {
			return true
		}
	}
}

// ObserveTerm is observeTerm for other packages.
func ObserveTerm(term int64) bool { return observeTerm(term) }

// AcquireAdvisoryLock takes a Postgres session-level advisory lock on a
// dedicated connection, waiting while another instance holds it. The
// returned func releases it.
func AcquireAdvisoryLock(ctx context.Context, db *sql.DB, key int64) (release func() error, err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	for {
		var got bool
		if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&got); err != nil {
			conn.Close()
			return nil, err
		}
		if got {
			break
		}
		select {
		case <-ctx.Done():
			conn.Close()
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return func() error {
		defer conn.Close()
		_, err := conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1)`, key)
		return err
	}, nil
}
