// Package apiuser builds writes with another package's client: the
// builder's and the sender's facts cross the import.
package apiuser

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

func Look(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("GET", "runs", nil)
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}
