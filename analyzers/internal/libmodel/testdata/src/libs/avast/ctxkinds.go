package avast

import (
	"context"

	"github.com/avast/retry-go/v4"

	"libs/remote"
)

// pipeContext embeds context.Context: a *pipeContext is a context.
type pipeContext struct {
	context.Context
	Name string
}

// doner has a Done method of its own: not a context.
type doner struct{}

func (doner) Done() <-chan struct{} { return nil }

func embedded(ctx *pipeContext) error {
	return retry.Do(remote.Local, retry.Attempts(3)) // want `retrydeadline: retry.Do without retry.Context\(ctx\) waits on context.Background`
}

// The retry runs in a closure over the caller's context.
func closure(ctx context.Context, names []string) error {
	for _, n := range names {
		push := func() error {
			return retry.Do(func() error { return remote.Fetch(ctx) }, retry.Attempts(3)) // want `retrybudget: retry.Do around a remote call consults no retry budget` `retrydeadline: retry.Do without retry.Context\(ctx\) waits on context.Background`
		}
		if err := push(); err != nil {
			return err
		}
		_ = n
	}
	return nil
}

// Look-alike: a type with a Done method that is not the context's.
func notContext(ctx doner) error {
	return retry.Do(remote.Local, retry.Attempts(3))
}

// Look-alike: two contexts in scope; which one bounds the retry is the
// caller's choice, not a mechanical fix.
func twoContexts(ctx, reqCtx context.Context) error {
	return retry.Do(remote.Local, retry.Attempts(3))
}

// Look-alike: the closure's own ctx shadows the outer one and is not a
// parameter of any function.
func shadowed(ctx context.Context) error {
	f := func() error {
		ctx := 1
		_ = ctx
		return retry.Do(remote.Local, retry.Attempts(3))
	}
	return f()
}

// Look-alike: the option is there.
func withContext(ctx *pipeContext) error {
	return retry.Do(remote.Local, retry.Attempts(3), retry.Context(ctx))
}
