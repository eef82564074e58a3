package a

import (
	"context"
	"errors"
	"time"
)

// A listener's receive loop, started as a goroutine: the context is a
// local of the enclosing function, captured by the literal. On an error
// the loop sleeps and goes round, never looking at ctx: cancellation
// waits out every sleep (the go-pg listener shape).
type listener struct {
	ctx context.Context
	ch  chan string
}

var errListenerClosed = errors.New("closed")

func (ln *listener) receive(ctx context.Context) (string, error) { return "", ctx.Err() }

func (ln *listener) start() {
	ctx := ln.ctx
	go func() {
		errs := 0
		for {
			msg, err := ln.receive(ctx)
			if err != nil {
				if err == errListenerClosed {
					close(ln.ch)
					return
				}
				if errs > 0 {
					time.Sleep(500 * time.Millisecond) // want `retry sleeps while ctx is in scope and never checks it`
				}
				errs++
				continue
			}
			errs = 0
			ln.ch <- msg
		}
	}()
}

// Look-alike: the loop consults the captured context between attempts.
func (ln *listener) startConsulting() {
	ctx := ln.ctx
	go func() {
		for {
			msg, err := ln.receive(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				time.Sleep(500 * time.Millisecond)
				continue
			}
			ln.ch <- msg
		}
	}()
}

// Look-alike: the context is declared after the literal, in a sibling
// scope: the literal cannot see it.
func (ln *listener) startLate(op func() error) {
	retry := func() {
		for i := 0; i < 3; i++ {
			if op() == nil {
				return
			}
			time.Sleep(time.Second)
		}
	}
	ctx := ln.ctx
	_ = ctx
	go retry()
}

// Look-alike: a context declared in another literal of the function is
// not in scope in this one.
func (ln *listener) startSibling(op func() error) {
	go func() {
		ctx := ln.ctx
		_ = ctx
	}()
	go func() {
		for i := 0; i < 3; i++ {
			if op() == nil {
				return
			}
			time.Sleep(time.Second)
		}
	}()
}
