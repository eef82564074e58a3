package apiuser

import (
	"context"

	"libs/apiclient"
)

func Restart(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewCreate("runs", nil) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}
