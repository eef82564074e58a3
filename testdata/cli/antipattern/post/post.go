// Package post is a fixture with every retry anti-pattern at once: an
// unbounded loop re-sending a POST without an idempotency key, with no
// budget, no deadline and a fixed one-second sleep.
package post

import (
	"bytes"
	"net/http"
	"time"
)

// Send posts body until it succeeds.
func Send(url string, body []byte) error {
	for {
		resp, err := http.Post(url, "application/json", bytes.NewReader(body))
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
}
