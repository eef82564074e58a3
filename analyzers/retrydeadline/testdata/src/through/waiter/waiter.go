// Package waiter holds retry helpers that sleep with time.Sleep and also
// wait on a method whose select offers a stop: whether the stop can be a
// caller's depends on where it comes from.
package waiter

import (
	"context"
	"database/sql"
	"io"
	"net/http"
	"time"
)

var shutdown = make(chan struct{})

func quit() <-chan struct{} { return shutdown }

// Backoff waits growing delays, or until the process shuts down: the
// package's own channel, none of a caller's.
type Backoff struct {
	base time.Duration
	n    int
}

// Wait waits the next delay.
func (b *Backoff) Wait() {
	d := b.base << b.n
	b.n++
	select {
	case <-time.After(d):
	case <-shutdown:
	}
}

// WithBackoff sleeps a second after the first failure and waits on a
// backoff after the others.
func WithBackoff(f func() error) error {
	b := &Backoff{base: time.Second}
	var err error
	for i := 0; i < 5; i++ {
		if err = f(); err == nil {
			return nil
		}
		if i == 0 {
			time.Sleep(time.Second)
			continue
		}
		b.Wait()
	}
	return err
}

// Pacer's stop is reached through its receiver, but nothing a Pacer holds
// can be a context or a channel: a duration, a writer, a logging function.
type Pacer struct {
	d    time.Duration
	out  io.Writer
	logf func(format string, args ...any)
}

func (p *Pacer) quit() <-chan struct{} { return quit() }

// Wait waits p.d or until the process shuts down.
func (p *Pacer) Wait() {
	select {
	case <-time.After(p.d):
	case <-p.quit():
	}
}

// WithPacer sleeps, then paces.
func WithPacer(p *Pacer, f func() error) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = f(); err == nil {
			return nil
		}
		if i == 0 {
			time.Sleep(time.Second)
			continue
		}
		p.Wait()
	}
	return err
}

// Session holds a context its wait observes: it may be the caller's.
type Session struct {
	ctx context.Context
}

// Wait waits a second or until the session's context ends.
func (s *Session) Wait() {
	select {
	case <-time.After(time.Second):
	case <-s.ctx.Done():
	}
}

// WithSession sleeps, then waits on the session.
func WithSession(s *Session, f func() error) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = f(); err == nil {
			return nil
		}
		if i == 0 {
			time.Sleep(time.Second)
			continue
		}
		s.Wait()
	}
	return err
}

// Notifier is the code base's own interface: what it holds is unknown.
type Notifier interface {
	Notify()
	Done() <-chan struct{}
}

// Relay waits on a stop reached through its receiver, which holds a
// Notifier: it may hold a caller's context.
type Relay struct {
	d    time.Duration
	next Notifier
}

// Wait waits r.d or until r's notifier is done.
func (r *Relay) Wait() {
	select {
	case <-time.After(r.d):
	case <-r.next.Done():
	}
}

// WithRelay sleeps, then waits on the relay.
func WithRelay(r *Relay, f func() error) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = f(); err == nil {
			return nil
		}
		if i == 0 {
			time.Sleep(time.Second)
			continue
		}
		r.Wait()
	}
	return err
}

// Throttle waits on a context it makes itself: whatever it is, it is none
// of a caller's, for a Throttle holds only a duration and a database
// (whose own channels are the standard library's machinery).
type Throttle struct {
	d  time.Duration
	db *sql.DB
}

// Wait waits t.d.
func (t Throttle) Wait() {
	ctx, cancel := context.WithTimeout(context.Background(), t.d)
	defer cancel()
	select {
	case <-ctx.Done():
	case <-time.After(2 * t.d):
	}
}

// WithThrottle sleeps, then throttles.
func WithThrottle(t Throttle, f func() error) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = f(); err == nil {
			return nil
		}
		if i == 0 {
			time.Sleep(time.Second)
			continue
		}
		t.Wait()
	}
	return err
}

// Drainer holds a channel of its own, but its wait observes only its
// package's shutdown channel: none of a caller's.
type Drainer struct {
	done chan struct{}
}

// Wait waits a second or until the process shuts down.
func (d *Drainer) Wait() {
	select {
	case <-time.After(time.Second):
	case <-quit():
	}
}

// WithDrainer sleeps, then drains.
func WithDrainer(d *Drainer, f func() error) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = f(); err == nil {
			return nil
		}
		if i == 0 {
			time.Sleep(time.Second)
			continue
		}
		d.Wait()
	}
	return err
}

// Carrier holds a request, whose context may be the caller's.
type Carrier struct {
	req *http.Request
}

// Wait waits a second or until the request's context ends.
func (c *Carrier) Wait() {
	select {
	case <-time.After(time.Second):
	case <-c.req.Context().Done():
	}
}

// WithCarrier sleeps, then waits on the carrier.
func WithCarrier(c *Carrier, f func() error) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = f(); err == nil {
			return nil
		}
		if i == 0 {
			time.Sleep(time.Second)
			continue
		}
		c.Wait()
	}
	return err
}
