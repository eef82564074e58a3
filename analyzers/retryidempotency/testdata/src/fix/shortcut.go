package fix

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"time"
)

type hook struct {
	hc  *http.Client
	url string
}

const jsonType = "application/json"

// The client's Post, with the function's context in scope.
func (h *hook) deliver(ctx context.Context, payload io.Reader) (*http.Response, error) {
	var lastErr error
	for i := 0; i < 3; i++ {
		resp, err := h.hc.Post(h.url, jsonType, payload) // want `POST request is re-sent`
		if err == nil {
			return resp, nil
		}
		lastErr = err
		time.Sleep(time.Duration(i) * time.Second)
	}
	return nil, lastErr
}

// PostForm: the form is encoded into the body, as the shortcut does.
func login(c *http.Client, u string, form url.Values) error {
	for i := 0; i < 3; i++ {
		resp, err := c.PostForm(u, form) // want `POST request is re-sent`
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return errors.New("gave up")
}

// Negatives: the shortcut stays, the finding stands alone.

// The content type is computed by a call: it would run in another order.
func computedType(c *http.Client, u string, payload io.Reader, typeOf func() string) error {
	for i := 0; i < 3; i++ {
		resp, err := c.Post(u, typeOf(), payload) // want `POST request is re-sent`
		if err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// The response is assigned, not declared: the rewrite's := would not
// declare anything new.
func assigned(c *http.Client, u string, payload io.Reader) (resp *http.Response, err error) {
	for i := 0; i < 3; i++ {
		resp, err = c.Post(u, jsonType, payload) // want `POST request is re-sent`
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// No error result: a failed request build could not be returned.
func noResult(c *http.Client, u string, payload io.Reader) {
	for i := 0; i < 3; i++ {
		resp, err := c.Post(u, jsonType, payload) // want `POST request is re-sent`
		if err == nil {
			resp.Body.Close()
			return
		}
	}
}

// A goroutine's retries with the caller's context captured from outside:
// the request keeps context.Background, so it does not die with the caller.
func background(ctx context.Context, c *http.Client, u string, payload io.Reader, done chan<- error) {
	_ = ctx
	go func() {
		for i := 0; i < 3; i++ {
			resp, err := c.Post(u, jsonType, payload) // want `POST request is re-sent`
			if err == nil {
				done <- resp.Body.Close()
				return
			}
		}
		done <- errors.New("gave up")
	}()
}
