package fix

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

type Store struct{ db *sql.DB }

// The call in the if's init, its error declared outside: the success is
// recorded in the if, the failure at the guard.
func (s *Store) WaitReady(ctx context.Context) (err error) {
	for attempt := 0; attempt < 5; attempt++ { // want `retry loop has no retry budget`
		if err = s.db.PingContext(ctx); err == nil { // the database answers
			return nil
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	return fmt.Errorf("store: not ready: %w", err)
}

// An error declared by the if itself is gone after it: no fix.
func (s *Store) WaitScoped(ctx context.Context) error {
	for attempt := 0; attempt < 5; attempt++ { // want `retry loop has no retry budget`
		if err := s.db.PingContext(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	return fmt.Errorf("store: not ready")
}
