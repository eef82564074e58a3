package fixalias

import (
	"errors"
	"time"
)

// A local variable named budget: the import is aliased.
func clash(op func() error, budget int) error {
	delay := time.Millisecond
	for i := 0; i < budget; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(delay) // want `backoff grows without jitter`
		delay *= 2
	}
	return errors.New("gave up")
}
