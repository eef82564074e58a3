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

// sendCtx is a sender handed the request beside other arguments (an ACME
// client's doNoRetry(ctx, req)); it sends what it is given.
func (s *signer) sendCtx(ctx context.Context, req *http.Request) (*http.Response, error) {
	req.Header.Set("User-Agent", "acme")
	return s.hc.Do(req.WithContext(ctx))
}

// sendKeyed keys every request it is handed.
func (s *signer) sendKeyed(ctx context.Context, req *http.Request, key string) (*http.Response, error) {
	req.Header.Set("Idempotency-Key", key)
	return s.hc.Do(req.WithContext(ctx))
}

func postNoRetry(ctx context.Context, s *signer, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", "https://ca.example/order", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/jose+json")
	return s.sendCtx(ctx, req)
}

func postRetry(ctx context.Context, s *signer, body []byte) error {
	for i := 0; ; i++ {
		res, err := postNoRetry(ctx, s, body) // want `POST request is re-sent by a retry loop without an idempotency key`
		if err == nil {
			return res.Body.Close()
		}
		if i == 3 {
			return err
		}
		time.Sleep(time.Second)
	}
}

// Look-alike: the sender sets the key on what it is handed.
func postKeyedBySender(ctx context.Context, s *signer, body []byte, key string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", "https://ca.example/order", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return s.sendKeyed(ctx, req, key)
}

func postKeyedBySenderRetry(ctx context.Context, s *signer, body []byte, key string) error {
	for i := 0; ; i++ {
		res, err := postKeyedBySender(ctx, s, body, key)
		if err == nil {
			return res.Body.Close()
		}
		if i == 3 {
			return err
		}
		time.Sleep(time.Second)
	}
}
