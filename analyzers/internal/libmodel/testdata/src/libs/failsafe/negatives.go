package failsafe

import (
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"

	"libs/remote"
)

// A delay function is unknown.
func delayFunc() error {
	rp := retrypolicy.NewBuilder[any]().
		WithDelayFunc(func(exec failsafe.ExecutionAttempt[any]) time.Duration { return time.Second }).
		Build()
	return failsafe.With(rp).Run(remote.Local)
}

// An executor from the caller is unknown.
func executor(ex failsafe.Executor[any]) error {
	return ex.Run(remote.Local)
}

// No retries at all.
func noRetries() error {
	return failsafe.With(retrypolicy.NewBuilder[any]().WithMaxRetries(0).Build()).Run(remote.Local)
}
