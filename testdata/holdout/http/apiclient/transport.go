package apiclient

import (
	"net/http"
	"time"
)

// retryTransport retries idempotent requests that fail with a network
// error or a 5xx.
type retryTransport struct {
	base        http.RoundTripper
	maxAttempts int
}

// NewRetryClient returns a client that retries idempotent requests.
func NewRetryClient(maxAttempts int) *http.Client {
	return &http.Client{
		Timeout:   20 * time.Second,
		Transport: &retryTransport{base: http.DefaultTransport, maxAttempts: maxAttempts},
	}
}

func isIdempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// RoundTrip implements http.RoundTripper.
func (rt *retryTransport) RoundTrip(req *http.Request) (resp *http.Response, err error) {
	if !isIdempotent(req.Method) || req.Body != nil && req.GetBody == nil {
		return rt.base.RoundTrip(req)
	}
	for attempt := 0; attempt < rt.maxAttempts; attempt++ {
		if attempt > 0 {
			delay := time.Duration(1<<attempt) * 50 * time.Millisecond
			select {
			case <-req.Context().Done():
				return nil, req.Context().Err()
			case <-time.After(delay):
			}
			if req.GetBody != nil {
				body, gerr := req.GetBody()
				if gerr != nil {
					return nil, gerr
				}
				req = req.Clone(req.Context())
				req.Body = body
			}
		}
		resp, err = rt.base.RoundTrip(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if attempt < rt.maxAttempts-1 && resp != nil {
			resp.Body.Close()
		}
	}
	return resp, err
}
