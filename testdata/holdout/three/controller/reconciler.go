// Package controller reconciles Rollout objects, Kubernetes style: a work
// queue of keys, a level-triggered reconcile, requeue with backoff.
package controller

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"sync"
	"time"
)

// ErrConflict is returned by Store.Update when the object changed since it
// was read.
var ErrConflict = errors.New("object modified concurrently")

// Object is the reconciled resource.
type Object struct {
	Name               string
	Generation         int64
	ObservedGeneration int64
	Ready              bool
}

// Store is the object cache with optimistic concurrency.
type Store interface {
	Get(ctx context.Context, name string) (*Object, error)
	Update(ctx context.Context, obj *Object) error
}

// Result says whether to reconcile the key again.
type Result struct {
	Requeue      bool
	RequeueAfter time.Duration
}

// Reconciler drives objects to their desired state.
type Reconciler struct {
	store       Store
	api         *http.Client
	statusURL   string
	queue       chan string
	log         *log.Logger
	maxRequeues int
}

const (
	baseRequeueDelay = 200 * time.Millisecond
	maxRequeueDelay  = 30 * time.Second
)

// requeueDelay is the delay before requeue n: 200ms, 400ms, 800ms, ...
func requeueDelay(n int) time.Duration {
	d := baseRequeueDelay << n
	if d > maxRequeueDelay || d <= 0 {
		return maxRequeueDelay
	}
	return d
}

// Run starts workers that process keys from the queue until ctx ends.
func (r *Reconciler) Run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case key, ok := <-r.queue:
					if !ok {
						return
					}
					r.process(ctx, key)
				}
			}
		}()
	}
	wg.Wait()
}

// process reconciles key, requeueing it after failures.
func (r *Reconciler) process(ctx context.Context, key string) {
	for attempt := 0; attempt < r.maxRequeues; attempt++ {
		res, err := r.reconcile(ctx, key)
		if err == nil && !res.Requeue {
			return
		}
		delay := res.RequeueAfter
		if err != nil {
			r.log.Printf("reconcile %s: %v (attempt %d)", key, err, attempt+1)
			delay = requeueDelay(attempt)
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
	r.log.Printf("reconcile %s: giving up after %d attempts", key, r.maxRequeues)
}

// reconcile marks the object's current generation observed and reports
// its status upstream.
func (r *Reconciler) reconcile(ctx context.Context, key string) (res Result, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("reconcile %s: %w", key, err)
		}
	}()
	var obj *Object
	// Optimistic concurrency: re-read and re-apply on a conflict.
	for i := 0; i < 5; i++ {
		obj, err = r.store.Get(ctx, key)
		if err != nil {
			return res, err
		}
		if obj.ObservedGeneration == obj.Generation && obj.Ready {
			return res, nil
		}
		obj.ObservedGeneration = obj.Generation
		obj.Ready = true
		if err = r.store.Update(ctx, obj); err == nil {
			break
		}
		if !errors.Is(err, ErrConflict) {
			return res, err
		}
	}
	if err != nil {
		// still conflicting: let the queue bring it back later
		return Result{Requeue: true, RequeueAfter: time.Second}, nil
	}
	return res, r.putStatus(ctx, obj)
}

// putStatus replaces the object's status on the API server.
func (r *Reconciler) putStatus(ctx context.Context, obj *Object) error {
	body, err := json.Marshal(map[string]any{"observedGeneration": obj.ObservedGeneration, "ready": obj.Ready})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, r.statusURL+"/"+obj.Name+"/status", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.api.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("put status %s: %s", obj.Name, resp.Status)
	}
	return nil
}
