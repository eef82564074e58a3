package a

import (
	"context"
	"net/http"
	"time"
)

// A request sent as req.WithContext(ctx) is the request built above it,
// and a closure handed to a retry helper by name runs on every attempt.

type uploader struct{ client *http.Client }

func (u *uploader) getClient() *http.Client { return u.client }

func (u *uploader) initiate(ctx context.Context, url string) error {
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := u.getClient().Do(req.WithContext(ctx))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (u *uploader) initiateKeyed(ctx context.Context, url, key string) error {
	req, err := http.NewRequest(http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	resp, err := u.getClient().Do(req.Clone(ctx))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (u *uploader) status(ctx context.Context, url string) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := u.getClient().Do(req.WithContext(ctx))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func retryUpload(f func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (u *uploader) upload(ctx context.Context, url string) error {
	try := func() error {
		return u.initiate(ctx, url) // want `POST request is re-sent by a retry loop without an idempotency key`
	}
	return retryUpload(try)
}

// Look-alikes: the same with a key set once per call, and with a GET.
func (u *uploader) uploadKeyed(ctx context.Context, url, key string) error {
	try := func() error {
		return u.initiateKeyed(ctx, url, key)
	}
	return retryUpload(try)
}

func (u *uploader) poll(ctx context.Context, url string) error {
	try := func() error {
		return u.status(ctx, url)
	}
	return retryUpload(try)
}
