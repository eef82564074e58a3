// Package apimany builds twelve writes for another package's client: one
// finding at the first, ten of the other eleven as related positions
// (the last is left out of the list, not of the count).
package apimany

import (
	"context"

	"libs/apiclient"
)

func Create0(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/0", nil) // want `retrying client re-sends writes \(POST\) without an idempotency key at 12 request sites`
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Create1(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/1", nil) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Create2(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/2", nil) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Create3(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/3", nil) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Create4(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/4", nil) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Create5(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/5", nil) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Create6(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/6", nil) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Create7(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/7", nil) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Create8(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/8", nil) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Create9(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/9", nil) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Create10(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/10", nil) // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}

func Create11(ctx context.Context, c *apiclient.Client) error {
	req, err := c.NewRequest("POST", "things/11", nil) // the twelfth: counted, not listed
	if err != nil {
		return err
	}
	return req.Do(ctx, nil)
}
