package a

import (
	"context"
	"math/rand"
	"time"
)

// A select loop whose failure re-arms the timer it waits on retries
// after the delay the failure chose: here a doubling one.
func rearmDoubling(ctx context.Context, watch func(context.Context) error, events <-chan error) {
	pause := time.Minute
	failTimer := time.NewTimer(0)
	for {
		select { // want `backoff grows without jitter`
		case <-failTimer.C:
			if err := watch(ctx); err != nil {
				failTimer.Reset(pause)
				if pause < time.Hour {
					pause *= 2
				}
				continue
			}
		case err := <-events:
			_ = err
		case <-ctx.Done():
			return
		}
	}
}

// The same loop with jitter on the delay it re-arms.
func rearmJittered(ctx context.Context, watch func(context.Context) error) {
	pause := time.Minute
	t := time.NewTimer(0)
	for {
		select {
		case <-t.C:
			if err := watch(ctx); err != nil {
				t.Reset(time.Duration(rand.Int63n(int64(pause))))
				pause *= 2
			}
		case <-ctx.Done():
			return
		}
	}
}

// A periodic loop: success and failure re-arm the same interval, and the
// interval grows with neither (no backoff).
func rearmPeriodic(ctx context.Context, sync func(context.Context) error, every time.Duration) {
	t := time.NewTimer(every)
	for {
		select {
		case <-t.C:
			if err := sync(ctx); err != nil {
				t.Reset(every)
				continue
			}
			t.Reset(every)
		case <-ctx.Done():
			return
		}
	}
}

// A failure that re-arms another timer than the one its case waits on
// paces something else: not the retry of this operation.
func rearmOther(ctx context.Context, sync func(context.Context) error, report *time.Timer) {
	pause := time.Second
	t := time.NewTimer(0)
	for {
		select {
		case <-t.C:
			if err := sync(ctx); err != nil {
				report.Reset(pause)
				pause *= 2
			}
			t.Reset(time.Minute)
		case <-report.C:
		case <-ctx.Done():
			return
		}
	}
}

// A failure that re-arms a timer the loop does not wait on paces
// something else, not the next attempt.
func rearmUnwaited(ctx context.Context, sync func(context.Context) error, report *time.Timer) {
	pause := time.Second
	t := time.NewTimer(0)
	for {
		select {
		case <-t.C:
			if err := sync(ctx); err != nil {
				report.Reset(pause)
				pause *= 2
			}
			t.Reset(time.Minute)
		case <-ctx.Done():
			return
		}
	}
}

// A worker select: the operation handles the item its case received;
// every round is a new item, not a retry.
func rearmWorker(ctx context.Context, jobs <-chan string, process func(string) error) {
	pause := time.Second
	t := time.NewTimer(0)
	for {
		select {
		case job := <-jobs:
			if err := process(job); err != nil {
				t.Reset(pause)
				pause *= 2
			}
		case <-t.C:
		case <-ctx.Done():
			return
		}
	}
}
