// Package retry is a fixture: a retry loop that sleeps a fixed delay.
package retry

import (
	"net/http"
	"time"
)

// Get retries a GET three times with a fixed delay.
func Get(url string) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = http.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

// Client is a fixture type with a method.
type Client struct{}

// Ping sleeps in a function literal.
func (c *Client) Ping() {
	f := func() { time.Sleep(0) }
	f()
}
