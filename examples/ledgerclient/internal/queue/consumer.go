package queue

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Backoff between failed receives. A healthy queue answers every long
// poll, so any failure means the queue service is in trouble.
const (
	minReceiveBackoff = 250 * time.Millisecond
	maxReceiveBackoff = 30 * time.Second
)

// Handler processes one message. A message whose handler fails is not
// deleted and comes back after the queue's visibility timeout.
type Handler func(ctx context.Context, m Message) error

// Consumer receives messages and runs a pool of workers over them.
type Consumer struct {
	Queue   *Client
	Handle  Handler
	Workers int
	Log     *slog.Logger

	deletes budget.Adaptive // zero value: retries up to 10% of the last second's successes
}

// Run consumes until ctx is done.
func (c *Consumer) Run(ctx context.Context) error {
	jobs := make(chan Message)
	var wg sync.WaitGroup
	for range max(c.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.work(ctx, jobs)
		}()
	}
	err := c.receive(ctx, jobs)
	close(jobs)
	wg.Wait()
	return err
}

// receive feeds jobs until ctx is done, backing off while the queue
// service fails.
func (c *Consumer) receive(ctx context.Context, jobs chan<- Message) error {
	delay := minReceiveBackoff
	for {
		msgs, err := c.Queue.Receive(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			c.Log.Warn("queue receive failed", "err", err, "retry_in", delay)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(delay):
			}
			delay *= 2
			if delay > maxReceiveBackoff {
				delay = maxReceiveBackoff
			}
			continue
		}
		delay = minReceiveBackoff
		for _, m := range msgs {
			select {
			case jobs <- m:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}
