package shapes

import (
	"context"
	"errors"
	"net"
	"slices"
	"sync"
	"time"
)

// A bool-only call is an operation's outcome only where the function turns
// a failure into false: otherwise it is a condition the loop waits for or
// stops at (SPEC: polling loops with no failed operation are not retries).

type room struct {
	mu     sync.Mutex
	closed bool
	err    error
	names  map[string]bool
}

func (r *room) isClosed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

func (r *room) streamErr() error { return r.err }

// failed reads the error the stream ended with: a state, not an attempt.
func (r *room) failed() bool { return r.streamErr() != nil }

func (r *room) subscribed(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.names[name]
}

// A worker that runs until its room closes: periodic work.
func (r *room) worker() {
	for !r.isClosed() {
		_ = op(context.Background())
		time.Sleep(time.Second)
	}
}

// The same with the test inside the loop.
func (r *room) reporter() {
	for {
		if r.isClosed() {
			return
		}
		time.Sleep(3 * time.Second)
	}
}

// A loop that stops when the stream has ended: the error is read, not
// returned by an attempt the loop makes.
func (r *room) drain(queue []string) {
	for len(queue) > 0 {
		if r.failed() {
			break
		}
		_ = send(context.Background(), queue[0])
		queue = queue[1:]
	}
}

// A local predicate polled until it holds.
func (r *room) waitSubscribed(name string) bool {
	for i := 0; i < 20; i++ {
		if r.subscribed(name) {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// A predicate of another package, whose body is unknown: a condition.
func waitState(states []string, cur func() string) {
	for !slices.Contains(states, cur()) {
		time.Sleep(10 * time.Millisecond)
	}
}

// An attempt that turns a dial's failure into false: a retry.
func dialed(addr string) bool {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

func waitDial(addr string) {
	for i := 0; i < 5; i++ {
		if dialed(addr) { // want `retry site`
			return
		}
		time.Sleep(time.Second)
	}
}

// An attempt whose failure is false after a check of its kind.
func (r *room) lock(ctx context.Context) bool {
	err := op(ctx)
	if errors.Is(err, errBusy) {
		return false
	}
	return err == nil
}

func (r *room) acquire(ctx context.Context) {
	for !r.lock(ctx) { // want `retry site`
		time.Sleep(100 * time.Millisecond)
	}
}
