package helpers

import (
	"errors"
	"net/http"
	"time"
)

// Retry is a generic retry helper: it retries fn, waiting delay between attempts.
func Retry(attempts int, delay time.Duration, fn func() error) (err error) { // want Retry:`func: retrier\(op=2 delay=1 grows=false\)`
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		time.Sleep(delay)
	}
	return err
}

// RetryGrow doubles the delay it is given.
func RetryGrow(attempts int, sleep time.Duration, fn func() error) (err error) { // want RetryGrow:`func: retrier\(op=2 delay=1 grows=true\)`
	for i := 0; i < attempts; i++ {
		if i > 0 {
			time.Sleep(sleep)
			sleep *= 2
		}
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

// Send re-sends the request it is handed.
func Send(c *http.Client, req *http.Request) (*http.Response, error) { // want Send:`func: remote retrier\(op=-1 delay=-1 grows=false resends=1\)`
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}
