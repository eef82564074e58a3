package retryfixture

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"
)

// Submit posts body to url and posts it again when the first try fails.
//
// retryidempotency: http.Post is re-sent with no Idempotency-Key, so a
// request that reached the server before the failure is applied twice.
func Submit(url string, body []byte) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *http.Response
		resp, err = http.Post(url, "application/json", bytes.NewReader(body))
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(500 * time.Millisecond)
	}
	return err
}

// Charge posts an order, retrying it with a key in a header that only this
// service uses. The finding goes away once the header is configured:
// retryidempotency: {headers: [X-Request-Token]}.
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
		time.Sleep(time.Second)
	}
	return err
}
