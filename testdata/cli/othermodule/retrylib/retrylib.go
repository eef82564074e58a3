// Package retrylib is a retry library of another module, one the SPEC
// does not name: its budget, delay and jitter are unknown to the caller.
package retrylib

import "time"

// Do retries op with a fixed pause.
func Do(attempts int, op func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
