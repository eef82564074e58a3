package retryfixture

import (
	"context"
	"net/http"
	"time"
)

// Ping gets url until it answers, doubling the delay after each failure.
//
// retryjitter: the delay grows by doubling with no randomness, so clients
// that failed together retry together.
func Ping(ctx context.Context, client *http.Client, url string) error {
	delay := 100 * time.Millisecond
	var err error
	for attempt := 0; attempt < 8; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		var resp *http.Response
		resp, err = client.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(delay)
		delay *= 2
	}
	return err
}
