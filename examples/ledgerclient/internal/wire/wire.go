// Package wire holds the small HTTP helpers shared by the ledger and queue
// clients: JSON in and out, and one error type for non-2xx answers.
package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// maxErrorBody bounds how much of an error response is kept for the message.
const maxErrorBody = 512

// StatusError is a response whose status code was not 2xx.
type StatusError struct {
	Method string
	URL    string
	Code   int
	Body   string
	// RetryAfter is the server's Retry-After, when it sent one in seconds.
	RetryAfter time.Duration
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s %s: %d %s: %s", e.Method, e.URL, e.Code, http.StatusText(e.Code), e.Body)
}

// Temporary reports whether the same request may succeed later: a 5xx, a
// 429 or a 408.
func (e *StatusError) Temporary() bool {
	return e.Code >= 500 || e.Code == http.StatusTooManyRequests || e.Code == http.StatusRequestTimeout
}

// Retryable reports whether err is worth another attempt: a network error
// or a temporary status. Cancellation is not.
func Retryable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var se *StatusError
	if errors.As(err, &se) {
		return se.Temporary()
	}
	return true
}

// GetJSON fetches url with hc and decodes a 2xx JSON body into v.
func GetJSON(hc *http.Client, url string, v any) error {
	resp, err := hc.Get(url)
	if err != nil {
		return err
	}
	return Decode(resp, v)
}

// NewJSONRequest builds a request whose body is body encoded as JSON.
func NewJSONRequest(ctx context.Context, method, url string, body any) (*http.Request, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encoding %s %s body: %w", method, url, err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// Decode closes resp's body after decoding it into v (which may be nil to
// discard it), or returns a *StatusError for a non-2xx status.
func Decode(resp *http.Response, v any) error {
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		se := &StatusError{
			Method: resp.Request.Method,
			URL:    resp.Request.URL.Redacted(),
			Code:   resp.StatusCode,
			Body:   string(bytes.TrimSpace(b)),
		}
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			se.RetryAfter = time.Duration(s) * time.Second
		}
		return se
	}
	if v == nil {
		_, err := io.Copy(io.Discard, resp.Body)
		return err
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return fmt.Errorf("decoding %s %s: %w", resp.Request.Method, resp.Request.URL.Redacted(), err)
	}
	return nil
}
