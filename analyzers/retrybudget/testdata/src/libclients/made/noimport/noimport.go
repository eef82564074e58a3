// Package noimport sends through clients package maker makes without
// importing retryablehttp itself: the sends are judged all the same.
package noimport

import "libclients/made/maker"

func get() error {
	_, err := maker.New().Get("http://example.com/a") // want `retryablehttp client retries with no retry budget: under an outage`
	return err
}

// Negatives.

func noRetry() error {
	_, err := maker.NoRetry().Get("http://example.com/b")
	return err
}

func hooked() error {
	_, err := maker.Hooked(nil).Get("http://example.com/c")
	return err
}

func either() error {
	_, err := maker.Either(false).Head("http://example.com/d")
	return err
}
