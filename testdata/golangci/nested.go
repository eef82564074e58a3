package retryfixture

import (
	"context"
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

var mirrorBudget budget.Adaptive

// Mirror fetches url through Fetch, which makes five attempts itself.
//
// retrynested: 3 × 5 = up to 15 attempts per call; Fetch has no budget.
func Mirror(ctx context.Context, url string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *http.Response
		if resp, err = Fetch(url); err == nil {
			return resp.Body.Close()
		}
		if !mirrorBudget.Allow() {
			return err
		}
		if err := budget.Sleep(ctx, budget.Jitter(time.Duration(100<<attempt)*time.Millisecond)); err != nil {
			return err
		}
	}
	return err
}
