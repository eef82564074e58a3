// Package ctxidiom holds the most common context idiom,
// ctx, cancel := context.WithCancel(ctx), in front of a retry of an HTTP
// request, once per retry library and once by hand. The context's value
// is defined by itself: following it must end.
package ctxidiom

import (
	"context"
	"errors"
	"net/http"
	"time"

	retryv4 "github.com/avast/retry-go/v4"
	retryv5 "github.com/avast/retry-go/v5"
	backoffv4 "github.com/cenkalti/backoff/v4"
	"github.com/cenkalti/backoff/v5"
	goretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
)

func status(ctx context.Context, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return 0, errors.New(resp.Status)
	}
	return resp.StatusCode, nil
}

// CenkaltiV5 is the fifteen lines of the crash report.
func CenkaltiV5(ctx context.Context, url string) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	return backoff.Retry(ctx, func() (int, error) {
		return status(ctx, url)
	}, backoff.WithBackOff(backoff.NewExponentialBackOff()))
}

func CenkaltiV4(ctx context.Context, url string) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var code int
	err := backoffv4.Retry(func() error {
		var err error
		code, err = status(ctx, url)
		return err
	}, backoffv4.WithContext(backoffv4.WithMaxRetries(backoffv4.NewExponentialBackOff(), 5), ctx))
	return code, err
}

func AvastV4(ctx context.Context, url string) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	return retryv4.DoWithData(func() (int, error) {
		return status(ctx, url)
	}, retryv4.Context(ctx), retryv4.Attempts(5))
}

func AvastV5(ctx context.Context, url string) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var code int
	err := retryv5.New(retryv5.Context(ctx), retryv5.Attempts(5)).Do(func() error {
		var err error
		code, err = status(ctx, url)
		return err
	})
	return code, err
}

func GoRetry(ctx context.Context, url string) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var code int
	b := goretry.WithMaxRetries(5, goretry.WithJitter(50*time.Millisecond, goretry.NewExponential(100*time.Millisecond)))
	err := goretry.Do(ctx, b, func(ctx context.Context) error {
		var err error
		code, err = status(ctx, url)
		if err != nil {
			return goretry.RetryableError(err)
		}
		return nil
	})
	return code, err
}

func Wait(ctx context.Context, url string) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var code int
	b := wait.Backoff{Duration: 100 * time.Millisecond, Factor: 2, Jitter: 1, Steps: 5}
	err := wait.ExponentialBackoffWithContext(ctx, b, func(ctx context.Context) (bool, error) {
		var err error
		code, err = status(ctx, url)
		return err == nil, nil
	})
	return code, err
}

func ByHand(ctx context.Context, url string) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		var code int
		code, err = status(ctx, url)
		if err == nil {
			return code, nil
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return 0, err
}
