// Package b is a fixture: a helper that does the network call, so that
// the retry loop in package a reaches the network only through facts.
package b

import (
	"fmt"
	"net/http"
)

// Fetch gets url.
func Fetch(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}
