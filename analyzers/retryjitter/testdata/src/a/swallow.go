package a

import (
	"context"
	"log"
	"math/rand"
	"time"
)

// A loop whose callee doubles its wait after each failure it swallows.

type syncer struct {
	url      string
	failures uint
}

func (s *syncer) run(ctx context.Context) {
	for ctx.Err() == nil {
		s.sync(ctx) // want `backoff grows without jitter`
	}
}

func (s *syncer) sync(ctx context.Context) {
	if err := get(ctx, s.url); err != nil {
		log.Print(err)
		time.Sleep(100 * time.Millisecond << s.failures)
		s.failures++
		return
	}
	s.failures = 0
	time.Sleep(time.Minute)
}

// Look-alike: the callee's wait after failure is jittered.
func (s *syncer) runJittered(ctx context.Context) {
	for ctx.Err() == nil {
		s.syncJittered(ctx)
	}
}

func (s *syncer) syncJittered(ctx context.Context) {
	if err := get(ctx, s.url); err != nil {
		time.Sleep(time.Duration(rand.Int63n(int64(time.Second << s.failures))))
		s.failures++
		return
	}
	s.failures = 0
	time.Sleep(time.Minute)
}
