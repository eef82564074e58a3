package fiximported

import (
	"context"
	"errors"
	"time"

	rb "github.com/retrylint/retrylint/budget"
)

// The file already imports the library under another name: reuse it.
func imported(ctx context.Context, op func() error) error {
	if err := rb.Sleep(ctx, time.Millisecond); err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry waits a fixed delay`
	}
	return errors.New("gave up")
}
