// Package clients retries around clients and libraries that retry.
package clients

import (
	"context"
	"net/http"
	"time"

	"github.com/avast/retry-go/v4"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/time/rate"
	k8sretry "k8s.io/client-go/util/retry"
)

type S struct {
	RC      *retryablehttp.Client
	STS     *sts.Client
	limiter *rate.Limiter
}

// LoopAroundRetryablehttp: 3 attempts around a client making 5.
func LoopAroundRetryablehttp(ctx context.Context, url string) error {
	c := retryablehttp.NewClient()
	var err error
	for i := 0; i < 3; i++ { // want `retry loop retries a call that already retries: 3 × 5 = up to 15 attempts per call; retry at one layer, the one nearest the dependency \(the github.com/hashicorp/go-retryablehttp client\)`
		var resp *http.Response
		resp, err = c.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// FieldClient: a client configured elsewhere retries an unknown number
// of times, but retries.
func (s *S) FieldClient(ctx context.Context, url string) error {
	var err error
	for i := 0; i < 3; i++ { // want `at least 3 × \? attempts per call`
		var resp *http.Response
		resp, err = s.RC.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// NoRetries turns the client's retries off: one layer.
func NoRetries(ctx context.Context, url string) error {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = c.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func fetch(url string) error {
	resp, err := retryablehttp.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// LibraryAroundFetch: retry-go's 3 attempts around a function whose
// package-default retryablehttp client makes 5.
func LibraryAroundFetch(ctx context.Context, url string) error {
	return retry.Do(func() error { // want `library retry retries a call that already retries: 3 × 5 = up to 15 attempts per call`
		return fetch(url)
	}, retry.Attempts(3), retry.Context(ctx))
}

// AWS: the service client's standard retryer makes 3 attempts; the loop
// has no budget.
func (s *S) AWS(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `3 × 3 = up to 9 attempts per call; retry at one layer, the one nearest the dependency \(the aws-sdk-go-v2 client's standard retryer\)`
		if _, err = s.STS.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{}); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// AWSBudgeted: a budget at both layers bounds the product.
func (s *S) AWSBudgeted(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = s.STS.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{}); err == nil {
			return nil
		}
		if !s.limiter.Allow() {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// AWSOnce calls the client once: its own retryer is the only layer.
func (s *S) AWSOnce(ctx context.Context) error {
	_, err := s.STS.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	return err
}

// Conflicts: RetryOnConflict retries only conflicts, which the inner
// client never retries.
func Conflicts(url string) error {
	return k8sretry.RetryOnConflict(k8sretry.DefaultRetry, func() error {
		return fetch(url)
	})
}

// FetchAll fetches each URL once: a collection loop around a retrying
// function.
func FetchAll(urls []string) error {
	for _, u := range urls {
		if err := fetch(u); err != nil {
			return err
		}
	}
	return nil
}

// WarmThenSend: retry-go retries the send; the warm-up through the
// retrying fetch only logs its failure, so it is another operation.
func WarmThenSend(ctx context.Context, s *S, url string) error {
	return retry.Do(func() error {
		if err := fetch(url); err != nil {
			println("warm-up:", err.Error())
		}
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, retry.Attempts(3), retry.Context(ctx))
}
