// Package use sends through clients package maker makes.
package use

import (
	"github.com/hashicorp/go-retryablehttp"

	"libs/made/maker"
)

func get() error {
	_, err := maker.Default().Get("http://example.com/a") // want `retryablehttp's default backoff has no jitter`
	return err
}

// Negatives.

func jittered() error {
	_, err := maker.Jittered().Get("http://example.com/b")
	return err
}

// The caller sets a backoff with jitter after the constructor.
func setAfter() error {
	c := maker.Default()
	c.Backoff = retryablehttp.LinearJitterBackoff
	_, err := c.Get("http://example.com/c")
	return err
}
