// Package backup retries calls of a client that already retries on a
// source of retry ticks.
package backup

import (
	"context"
	"time"

	"ticklayers/objstore"
)

func size(ctx context.Context, c *objstore.Client, name string) (int64, error) {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop retries a call that already retries: at least 3 × \? attempts per call; retry at one layer, the one nearest the dependency \(objstore.\(\*Client\).Head\)`
		var n int64
		if n, err = c.Head(ctx, name); err == nil {
			return n, nil
		}
		time.Sleep(time.Second)
	}
	return 0, err
}
