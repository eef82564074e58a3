package remotes

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

// Config is set by the program's user: the analysis cannot see its
// values.
type Config struct {
	RetryDelay time.Duration
}

// Configured waits what the configuration says.
func Configured(hc *http.Client, cfg Config) error {
	for i := 0; i < 3; i++ {
		resp, err := hc.Get("https://ledger.example.com/v1/health")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(cfg.RetryDelay)
	}
	return errors.New("give up")
}

// ServerDirected waits as long as the server's Retry-After says.
func ServerDirected(ctx context.Context, hc *http.Client) error {
	for i := 0; i < 3; i++ {
		resp, err := hc.Get("https://ledger.example.com/v1/health")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Until(retryAt(resp))):
		}
	}
	return errors.New("give up")
}

// Ranged waits 200–400 ms.
func Ranged(ctx context.Context, hc *http.Client) error {
	for i := 0; i < 3; i++ {
		resp, err := hc.Get("https://ledger.example.com/v1/health")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200*time.Millisecond + rand.N(200*time.Millisecond)):
		}
	}
	return errors.New("give up")
}

// FullJitter waits a uniform time below a doubling ceiling capped at
// 10 s.
func FullJitter(ctx context.Context, hc *http.Client) error {
	for i := 0; i < 4; i++ {
		resp, err := hc.Get("https://ledger.example.com/v1/health")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		d := rand.N(min(10*time.Second, 100*time.Millisecond<<i))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return errors.New("give up")
}

// retryAt reads the server's Retry-After, a date.
func retryAt(resp *http.Response) time.Time {
	at, _ := http.ParseTime(resp.Header.Get("Retry-After"))
	return at
}
