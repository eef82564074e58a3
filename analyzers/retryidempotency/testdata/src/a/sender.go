package a

import (
	"bytes"
	"context"
	"net/http"
	"time"
)

// signer is the code base's own sender: it is handed a request and sends it.
type signer struct{ hc *http.Client }

func (s *signer) Do(req *http.Request) (*http.Response, error) {
	req.Header.Set("Authorization", "sig")
	return s.hc.Do(req)
}

// exchange builds a POST and hands it to the signer, once per call.
func exchange(ctx context.Context, s *signer, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://auth.example/token", bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := s.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func exchangeRetry(ctx context.Context, s *signer, body []byte) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = exchange(ctx, s, body); err == nil { // want `POST request is re-sent by a retry loop without an idempotency key`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Look-alikes: the same shape with a key, or a GET.
func exchangeKeyed(ctx context.Context, s *signer, body []byte, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://auth.example/token", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	resp, err := s.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func exchangeKeyedRetry(ctx context.Context, s *signer, body []byte, key string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = exchangeKeyed(ctx, s, body, key); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func lookup(ctx context.Context, s *signer) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://auth.example/keys", nil)
	if err != nil {
		return err
	}
	resp, err := s.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func lookupRetry(ctx context.Context, s *signer) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = lookup(ctx, s); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
