package a

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"time"
)

func get(ctx context.Context, c *http.Client, url string) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget: under an outage every caller retries and multiplies load`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, errors.New("gave up")
}

func query(ctx context.Context, db *sql.DB) error {
	for attempt := range 3 { // want `retry loop has no retry budget`
		_, err := db.ExecContext(ctx, "UPDATE t SET n = n + 1")
		if err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	return errors.New("gave up")
}

func forever(op func() error) {
	for { // want `retry loop has no attempt cap, deadline or retry budget: a persistent failure retries forever`
		if err := op(); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

func ignored(url string) (*http.Response, error) {
	//retrylint:ignore retrybudget single-client batch job, cannot form a storm
	for i := 0; i < 3; i++ {
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

func noReason(url string) (*http.Response, error) {
	//retrylint:ignore retrybudget // want `retrylint:ignore directive gives no reason`
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// local work retried with a cap is not a budget concern.
func local(op func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

// A context-watching loop without a cap: cancellable, not flagged as unbounded.
func watches(ctx context.Context, op func(context.Context) error) error {
	for {
		if err := op(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// A retrying RoundTripper: every request of every caller through it is
// retried, so it needs the budget most.
type retryTransport struct{ base http.RoundTripper }

func (rt *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err = rt.base.RoundTrip(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Duration(i) * 100 * time.Millisecond)
	}
	return nil, err
}

// A goto retry whose label sits on the attempt counter, the call after it.
func deleteObject(ctx context.Context, c *http.Client, url string) error {
	attempts := 0
retry:
	attempts++
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		if attempts < 3 {
			time.Sleep(time.Duration(attempts) * time.Second)
			goto retry // want `retry loop has no retry budget`
		}
		return err
	}
	return resp.Body.Close()
}

// A string the loop grows from itself that the request does not read (a
// log of the failures) moves no target: still a retry of one URL.
func getLogged(ctx context.Context, c *http.Client, url string) (string, error) {
	failures := ""
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return failures, err
		}
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return failures, nil
		}
		failures = failures + err.Error() + "; "
		time.Sleep(time.Second)
	}
	return failures, errors.New("gave up")
}
