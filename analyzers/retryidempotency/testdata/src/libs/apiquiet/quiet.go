// Package apiquiet has two clients like apiclient's: one whose grouped
// finding a directive on its construction silences, and one with a write
// silenced on its own line, left out of the count.
package apiquiet

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

type QuietRequest struct {
	req  *retryablehttp.Request
	http *retryablehttp.Client
}

func (r *QuietRequest) Do(ctx context.Context) error {
	resp, err := r.http.Do(r.req.WithContext(ctx))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type LoudRequest struct {
	req  *retryablehttp.Request
	http *retryablehttp.Client
}

func (r *LoudRequest) Do(ctx context.Context) error { // related: the requests are re-sent through Do here
	resp, err := r.http.Do(r.req.WithContext(ctx))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type Quiet struct{ http *retryablehttp.Client }

func NewQuiet() *Quiet {
	q := &Quiet{}
	//retrylint:ignore retryidempotency the server dedupes writes by the body's id
	q.http = &retryablehttp.Client{CheckRetry: retryablehttp.DefaultRetryPolicy, RetryMax: 3}
	return q
}

func (q *Quiet) NewRequest(method, url string) (*QuietRequest, error) {
	req, err := retryablehttp.NewRequest(method, url, nil)
	if err != nil {
		return nil, err
	}
	return &QuietRequest{req: req, http: q.http}, nil
}

func (q *Quiet) Create(ctx context.Context) error {
	req, err := q.NewRequest(http.MethodPost, "https://example.com/a")
	if err != nil {
		return err
	}
	return req.Do(ctx)
}

type Loud struct{ http *retryablehttp.Client }

func NewLoud() *Loud {
	l := &Loud{}
	l.http = &retryablehttp.Client{CheckRetry: retryablehttp.DefaultRetryPolicy, RetryMax: 3} // want `retrying client re-sends writes \(POST\) without an idempotency key at 1 request site:`
	return l
}

func (l *Loud) NewRequest(method, url string) (*LoudRequest, error) {
	req, err := retryablehttp.NewRequest(method, url, nil)
	if err != nil {
		return nil, err
	}
	return &LoudRequest{req: req, http: l.http}, nil
}

func (l *Loud) Create(ctx context.Context) error {
	req, err := l.NewRequest(http.MethodPost, "https://example.com/b") // related: POST request built here
	if err != nil {
		return err
	}
	return req.Do(ctx)
}

func (l *Loud) CreateKeyedInBody(ctx context.Context) error {
	req, err := l.NewRequest(http.MethodPost, "https://example.com/c") //retrylint:ignore retryidempotency the body carries a dedup id
	if err != nil {
		return err
	}
	return req.Do(ctx)
}
