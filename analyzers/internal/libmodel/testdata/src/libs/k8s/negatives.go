package k8s

import (
	"context"

	"k8s.io/apimachinery/pkg/util/wait"
)

type controller struct{ backoff wait.Backoff }

// A backoff from a field is unknown.
func (c *controller) sync(ctx context.Context) error {
	return wait.ExponentialBackoffWithContext(ctx, c.backoff, func(ctx context.Context) (bool, error) { return true, nil })
}

// No context in scope: ExponentialBackoff is bounded by Steps.
func noCtx() error {
	return wait.ExponentialBackoff(wait.Backoff{Steps: 3, Factor: 2, Jitter: 0.2, Duration: 10}, func() (bool, error) { return true, nil })
}
