// Package use sends writes through clients package maker makes.
package use

import (
	"bytes"
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"

	"libs/apimade/maker"
)

func post(ctx context.Context, body []byte) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com/orders", bytes.NewReader(body)) // want `POST request re-sent by retryablehttp without an idempotency key header`
	if err != nil {
		return err
	}
	_, err = maker.New().Do(req)
	return err
}

func postForm() error {
	c := maker.New()
	_, err := c.PostForm("http://example.com/form", nil) // want `POST request re-sent by retryablehttp without an idempotency key header`
	return err
}

// Negatives.

func keyed(ctx context.Context, body []byte, key string) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com/orders", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = maker.New().Do(req)
	return err
}

func careful(ctx context.Context, body []byte) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "http://example.com/orders", bytes.NewReader(body))
	if err != nil {
		return err
	}
	_, err = maker.Careful().Do(req)
	return err
}

func read(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://example.com/orders", nil)
	if err != nil {
		return err
	}
	_, err = maker.New().Do(req)
	return err
}
