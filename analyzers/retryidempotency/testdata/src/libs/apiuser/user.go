// Package apiuser builds writes with another package's client: the
// builder's and the sender's facts cross the import. The client's
// construction is out of view: the writes of this package are one
// finding, at the first of them (by file name, then position), the
// others related.
package apiuser

import (
	"context"

	"libs/apiclient"
)

func Start(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "runs", nil) // want `retrying client re-sends writes \(PATCH, POST\) without an idempotency key at 3 request sites`
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Look(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("GET", "runs", nil)
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Stop(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("PATCH", "runs/stop", nil) // related: PATCH request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}
