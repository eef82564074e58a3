// Package use checks that library findings reach the retryjitter analyzer.
package use

import (
	"context"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
)

func noJitter(ctx context.Context, url string) error {
	b := &backoff.ExponentialBackOff{ // want `RandomizationFactor`
		InitialInterval: 100 * time.Millisecond,
		Multiplier:      2,
		MaxInterval:     10 * time.Second,
		MaxElapsedTime:  time.Minute,
		Clock:           backoff.SystemClock,
	}
	return backoff.Retry(func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, backoff.WithContext(backoff.WithMaxRetries(b, 3), ctx))
}

// The default exponential backoff is jittered.
func jittered(ctx context.Context, op func() error) error {
	return backoff.Retry(op, backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3), ctx))
}

func retryable(url string) error {
	c := retryablehttp.NewClient() // want `retryablehttp's default backoff has no jitter`
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func retryableJitter(url string) error {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
