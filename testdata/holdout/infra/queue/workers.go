package queue

import (
	"context"
	"log"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Job is a unit of background work.
type Job struct {
	ID          string
	MaxAttempts int
	Fn          func(context.Context) error
}

// WorkerPool runs jobs on a fixed number of goroutines.
type WorkerPool struct {
	jobs   chan Job
	wg     sync.WaitGroup
	failed atomic.Int64
}

// NewWorkerPool starts n workers that stop when ctx ends.
func NewWorkerPool(ctx context.Context, n int) *WorkerPool {
	p := &WorkerPool{jobs: make(chan Job, 4*n)}
	p.wg.Add(n)
	for range n {
		go func() {
			defer p.wg.Done()
			p.worker(ctx)
		}()
	}
	return p
}

// Submit queues j.
func (p *WorkerPool) Submit(j Job) { p.jobs <- j }

func (p *WorkerPool) worker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case j, ok := <-p.jobs:
			if !ok {
				return
			}
			if err := p.process(ctx, j); err != nil {
				p.failed.Add(1)
				log.Printf("queue: job %s failed: %v", j.ID, err)
			}
		}
	}
}

// retryDelay is full jitter over a doubling ceiling.
func retryDelay(attempt int) time.Duration {
	ceil := min(100*time.Millisecond<<attempt, 5*time.Second)
	return rand.N(ceil)
}

// process runs one job, retrying it as often as the job allows.
func (p *WorkerPool) process(ctx context.Context, j Job) (err error) {
	attempts := max(j.MaxAttempts, 1)
	for attempt := 1; attempt <= attempts; attempt++ {
		if err = j.Fn(ctx); err == nil {
			return nil
		}
		if attempt == attempts {
			break
		}
		t := time.NewTimer(retryDelay(attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}

// memQueue is an unbounded in-process FIFO used between pipeline stages.
type memQueue[T any] struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []T
	closed bool
}

func newMemQueue[T any]() *memQueue[T] {
	q := &memQueue[T]{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *memQueue[T]) Push(v T) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *memQueue[T]) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

// Pop blocks until an item is available or the queue is closed.
func (q *memQueue[T]) Pop() (v T, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return v, false
	}
	v, q.items = q.items[0], q.items[1:]
	return v, true
}

var _ = newMemQueue[Message]
