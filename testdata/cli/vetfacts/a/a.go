// Package a is a fixture: a retry loop around a helper of package b
// that reaches the network, with no retry budget.
package a

import (
	"time"

	"example.com/vetfacts/b"
)

// Load fetches url, retrying three times.
func Load(url string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = b.Fetch(url); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
