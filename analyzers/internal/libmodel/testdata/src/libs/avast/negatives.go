package avast

import (
	"context"

	"github.com/avast/retry-go/v4"

	"libs/remote"
)

// Options built by a helper are unknown.
func helperOptions(ctx context.Context) error {
	return retry.Do(remote.Local, defaultOptions(ctx)...)
}

func defaultOptions(ctx context.Context) []retry.Option {
	return []retry.Option{retry.Attempts(0)}
}

// An option value from elsewhere is unknown.
func optionValue(ctx context.Context, delay retry.DelayTypeFunc) error {
	return retry.Do(remote.Local, retry.DelayType(delay), retry.Context(ctx))
}

// Attempts from configuration is a limit we cannot judge.
func configured(ctx context.Context, n uint) error {
	return retry.Do(remote.Local, retry.Attempts(n), retry.Context(ctx))
}

// One attempt: no retries.
func once() error {
	return retry.Do(remote.Local, retry.Attempts(1), retry.DelayType(retry.BackOffDelay))
}
