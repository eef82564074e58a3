package fixexisting

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// The budget is already declared: the fix reuses it.
var fixexistingBudget budget.Adaptive

func fetch(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(i) * time.Second):
		}
	}
	return nil, errors.New("gave up")
}

func other() bool { return fixexistingBudget.Allow() }
