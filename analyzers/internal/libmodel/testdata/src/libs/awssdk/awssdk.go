package awssdk

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
)

// Safe: the standard retryer keeps its token bucket.
func safe(ctx context.Context) (aws.Config, error) {
	return config.LoadDefaultConfig(ctx,
		config.WithRetryMaxAttempts(5),
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) { o.MaxAttempts = 5 })
		}))
}

// Safe: WithRetryMaxAttempts(0) keeps the default (3), it is not unbounded.
func safeZero(ctx context.Context) (aws.Config, error) {
	return config.LoadDefaultConfig(ctx, config.WithRetryMaxAttempts(0))
}

// Safe: a bounded AddWithMaxAttempts.
func safeMax() aws.Retryer {
	return retry.AddWithMaxAttempts(retry.NewStandard(), 3)
}

func none() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = 10
		o.RateLimiter = ratelimit.None // want `retrybudget: aws retryer with ratelimit.None has no retry token bucket`
	})
}

func unbounded() aws.Retryer {
	return retry.AddWithMaxAttempts(retry.NewStandard(), 0) // want `retrybudget: retry.AddWithMaxAttempts with 0 lets the aws retryer retry without limit`
}
