// Command bad retries the wrong way.
package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"time"
)

// Fetch gets url, trying five times one second apart, with no budget,
// no jitter, no way to cancel the sleep and no deadline.
func Fetch(url string) (*http.Response, error) {
	var lastErr error
	for i := 0; i < 5; i++ {
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		time.Sleep(time.Second)
	}
	return nil, lastErr
}

// Charge re-sends a POST; its idempotency key is in X-Request-Token, a
// header only this service uses.
func Charge(ctx context.Context, client *http.Client, url, orderID string, body []byte) error {
	token := fmt.Sprintf("charge-%s", orderID)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("X-Request-Token", token)
		var resp *http.Response
		resp, err = client.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

func main() {
	if len(os.Args) < 2 {
		return
	}
	resp, err := Fetch(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := Charge(ctx, &http.Client{Timeout: 2 * time.Second}, os.Args[1], "42", nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
