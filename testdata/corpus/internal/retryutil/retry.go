// Package retryutil is the kind of small retry helper every codebase grows.
package retryutil

import "time"

// Do calls fn up to attempts times, waiting delay between attempts.
func Do(attempts int, delay time.Duration, fn func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		if i < attempts-1 {
			time.Sleep(delay)
		}
	}
	return err
}
