// Package apione builds one write for another package's client: with the
// client out of view and no other write, it stands alone, as it is.
package apione

import (
	"context"

	"libs/apiclient"
)

func Start(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "runs", nil) // want `POST request is re-sent by a retrying client without an idempotency key`
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}
