package a

import (
	"errors"
	"time"
)

// Shapes from real code: a configured cap, a local attempt.

type limits struct{ base, max time.Duration }

func (l *limits) cappedByConfig(op func() error) error {
	d := l.base
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(d) // want `backoff grows without jitter`
		d = min(d*2, l.max)
	}
	return errors.New("gave up")
}

type queue struct{ c chan int }

func (q *queue) offer(v int) bool {
	select {
	case q.c <- v:
		return true
	default:
		return false
	}
}

func (q *queue) offerAll(vs []int) {
	for _, v := range vs {
		backoff := 5 * time.Millisecond
		for {
			if q.offer(v) {
				break
			}
			time.Sleep(backoff) // want `backoff grows without jitter`
			backoff = min(backoff*2, time.Second)
		}
	}
}

// Look-alikes: a configured interval (unknown), a fixed poll for room.

func (l *limits) configuredInterval(op func() error) error {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(l.base)
	}
	return errors.New("gave up")
}

func (q *queue) offerFixed(v int) {
	for {
		if q.offer(v) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
