package fix

import (
	"context"
	"time"
)

// A consumer pausing after a receive error (go-redis's PubSub channel):
// reported, but a backoff declared before the loop would never start over
// after the next success, so there is no fix.
func consume(ctx context.Context, recv func(context.Context) (string, error), handle func(string)) {
	var errCount int
	for {
		msg, err := recv(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			if errCount > 0 {
				time.Sleep(100 * time.Millisecond) // want `retry waits a fixed delay`
			}
			errCount++
			continue
		}
		errCount = 0
		handle(msg)
	}
}
