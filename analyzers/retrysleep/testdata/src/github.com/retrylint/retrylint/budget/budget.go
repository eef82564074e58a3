// Package budget stands in for the bundled library in GOPATH-mode tests
// (the fix tests compile the results against the real module).
package budget

import (
	"context"
	"time"
)

func Sleep(ctx context.Context, d time.Duration) error { return nil }
