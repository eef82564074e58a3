package shapes

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Local attempts: a function of this package whose one result says
// whether it worked. Retried with a growing delay, they are retries
// (retryjitter judges the delay); re-checked at a fixed pace or at
// once, they are polls and compare-and-swap loops.

const maxEnqueueBackoff = time.Second

type shardQueue struct {
	q    chan int
	quit chan struct{}
	n    atomic.Int64
	mu   sync.Mutex
}

func (s *shardQueue) enqueue(v int) bool {
	select {
	case s.q <- v:
		return true
	default:
		return false
	}
}

func (s *shardQueue) ready() bool { return len(s.q) == 0 }

// The shape of a remote-write queue: each sample is offered until the
// queue takes it, doubling the pause.
func (s *shardQueue) appendAll(vs []int) bool {
outer:
	for _, v := range vs {
		backoff := 5 * time.Millisecond
		for { // want `retry site: shape=bare bound=none delay=growing jitter=no ctx=unknown consulted attempts=unbounded`
			select {
			case <-s.quit:
				return false
			default:
			}
			if s.enqueue(v) {
				continue outer
			}
			time.Sleep(backoff)
			backoff *= 2
			if backoff > maxEnqueueBackoff {
				backoff = maxEnqueueBackoff
			}
		}
	}
	return true
}

// Look-alikes.

// A fixed pause between offers: a poll for room, not a backoff.
func (s *shardQueue) offerFixed(v int) {
	for {
		if s.enqueue(v) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A compare-and-swap loop: no wait at all.
func (s *shardQueue) bump() {
	for {
		old := s.n.Load()
		if s.n.CompareAndSwap(old, old+1) {
			return
		}
	}
}

// Another package's predicate (sync.Mutex.TryLock) with a growing wait:
// not an attempt this package defines.
func (s *shardQueue) lockSlowly() {
	d := time.Millisecond
	for {
		if s.mu.TryLock() {
			break
		}
		time.Sleep(d)
		d *= 2
	}
	s.mu.Unlock()
}

// A local predicate re-checked at a fixed pace: a poll.
func (s *shardQueue) drain() {
	for {
		if s.ready() {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func (s *shardQueue) shuttingDown() bool { return s.n.Load() < 0 }

// The net/http.Server.Serve shape: a predicate under the accept error is
// a stop condition, not an attempt, and accepting is not retried.
func (s *shardQueue) serve(l net.Listener) error {
	var tempDelay time.Duration
	for {
		c, err := l.Accept()
		if err != nil {
			if s.shuttingDown() {
				return err
			}
			if tempDelay == 0 {
				tempDelay = 5 * time.Millisecond
			} else {
				tempDelay *= 2
			}
			time.Sleep(tempDelay)
			continue
		}
		tempDelay = 0
		c.Close()
	}
}
