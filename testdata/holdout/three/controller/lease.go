package controller

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// leaseBudget is shared by every lease call to the coordination API.
var leaseBudget budget.Adaptive

// LeaseRenewer holds a leader-election lease on the coordination API.
type LeaseRenewer struct {
	hc          *http.Client
	url         string
	holder      string
	period      time.Duration
	retryPeriod time.Duration
	log         *log.Logger
}

func (l *LeaseRenewer) put(ctx context.Context, holder string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, l.url, strings.NewReader(`{"holder":"`+holder+`"}`))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return l.hc.Do(req)
}

// tryAcquire takes the lease if it is free; false means someone else holds it.
func (l *LeaseRenewer) tryAcquire(ctx context.Context) (bool, error) {
	resp, err := l.put(ctx, l.holder)
	if err != nil {
		return false, err
	}
	resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusConflict:
		return false, nil
	case resp.StatusCode < 300:
		return true, nil
	}
	return false, fmt.Errorf("acquire lease: %s", resp.Status)
}

func (l *LeaseRenewer) renew(ctx context.Context) error {
	ok, err := l.tryAcquire(ctx)
	if err == nil && !ok {
		err = errors.New("lease taken over")
	}
	return err
}

func (l *LeaseRenewer) release(ctx context.Context) error {
	resp, err := l.put(ctx, "")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("release lease: %s", resp.Status)
	}
	return nil
}

// Acquire blocks until this process holds the lease or ctx ends.
func (l *LeaseRenewer) Acquire(ctx context.Context) error {
	for {
		ok, err := l.tryAcquire(ctx)
		if err == nil && ok {
			return nil
		}
		if err != nil {
			l.log.Printf("acquire lease: %v", err)
		}
		wait := l.retryPeriod + rand.N(l.retryPeriod/2+1)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// Run renews the lease every period; three failed renewals in a row lose it.
func (l *LeaseRenewer) Run(ctx context.Context) error {
	ticker := time.NewTicker(l.period)
	defer ticker.Stop()
	failures := 0
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
		if err := l.renew(ctx); err != nil {
			failures++
			l.log.Printf("renew lease: %v (%d in a row)", err, failures)
			if failures >= 3 {
				return fmt.Errorf("lost lease %s: %w", l.url, err)
			}
			continue
		}
		failures = 0
	}
}

// Release gives the lease up on shutdown so a standby takes over at once.
func (l *LeaseRenewer) Release(ctx context.Context) (err error) {
	for attempt := 0; attempt < 3; attempt++ {
		if err = l.release(ctx); err == nil {
			return nil
		}
		leaseBudget.Record(err)
		if !leaseBudget.Allow() {
			break
		}
		t := time.NewTimer(budget.Jitter(time.Duration(attempt+1) * 200 * time.Millisecond))
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
	}
	return fmt.Errorf("release lease: %w", err)
}
