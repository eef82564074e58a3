// Package broker holds consumer, producer and worker loops in the shape
// of kafka-go, nats.go and the cloud pub/sub clients.
package broker

import (
	"bufio"
	"context"
	"log"
	"math/rand/v2"
	"net"
	"sync/atomic"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Message is one message.
type Message struct {
	Key   []byte
	Value []byte
}

// Conn is a connection to a broker.
type Conn struct {
	nc net.Conn
	r  *bufio.Reader
}

// Fetch reads the next message from the broker.
func (c *Conn) Fetch(ctx context.Context) (Message, error) {
	if dl, ok := ctx.Deadline(); ok {
		_ = c.nc.SetReadDeadline(dl)
	}
	line, err := c.r.ReadBytes('\n')
	if err != nil {
		return Message{}, err
	}
	return Message{Value: line}, nil
}

// Send writes a batch to the broker.
func (c *Conn) Send(ctx context.Context, batch []Message) error {
	for _, m := range batch {
		if _, err := c.nc.Write(append(m.Value, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// Consumer fetches and handles messages.
type Consumer struct {
	conn   *Conn
	handle func(Message)
}

// Run backs off on fetch errors by doubling, with no jitter.
func (c *Consumer) Run(ctx context.Context) error {
	backoff := 100 * time.Millisecond
	for {
		m, err := c.conn.Fetch(ctx)
		if err != nil {
			log.Printf("broker: fetch: %v", err)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(backoff):
			}
			backoff *= 2
			if backoff > 30*time.Second {
				backoff = 30 * time.Second
			}
			continue
		}
		backoff = 100 * time.Millisecond
		c.handle(m)
	}
}

// Subscriber is a simpler consumer.
type Subscriber struct {
	conn   *Conn
	handle func(Message)
}

// Loop sleeps a fixed second after a fetch error and never looks at ctx.
func (s *Subscriber) Loop(ctx context.Context) {
	for {
		m, err := s.conn.Fetch(ctx)
		if err != nil {
			log.Printf("broker: fetch: %v", err)
			time.Sleep(time.Second)
			continue
		}
		s.handle(m)
	}
}

// Flusher flushes a buffer on a ticker.
type Flusher struct {
	conn  *Conn
	every time.Duration
	buf   chan Message
}

func (f *Flusher) drain() []Message {
	var out []Message
	for {
		select {
		case m := <-f.buf:
			out = append(out, m)
		default:
			return out
		}
	}
}

// Run flushes whatever is buffered on every tick.
func (f *Flusher) Run(ctx context.Context) {
	t := time.NewTicker(f.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := f.conn.Send(ctx, f.drain()); err != nil {
				log.Printf("broker: flush: %v", err)
			}
		}
	}
}

// Worker processes jobs from a channel.
type Worker struct {
	conn   *Conn
	failed chan<- Message
}

// Run sends each job once; failures go to the dead-letter channel.
func (w *Worker) Run(ctx context.Context, jobs <-chan Message) {
	for m := range jobs {
		if err := w.conn.Send(ctx, []Message{m}); err != nil {
			w.failed <- m
		}
	}
}

// Producer sends messages in batches.
type Producer struct {
	conn      *Conn
	batchSize int
}

// SendAll sends msgs in batches and stops at the first failed batch.
func (p *Producer) SendAll(ctx context.Context, msgs []Message) error {
	for start := 0; start < len(msgs); start += p.batchSize {
		end := min(start+p.batchSize, len(msgs))
		if err := p.conn.Send(ctx, msgs[start:end]); err != nil {
			return err
		}
	}
	return nil
}

// Supervisor restarts a long-running task with jittered backoff.
type Supervisor struct {
	run     func(context.Context) error
	backoff budget.Backoff
}

// Run restarts the task until ctx is done.
func (s *Supervisor) Run(ctx context.Context) {
	seq := s.backoff.Start()
	for {
		err := s.run(ctx)
		if ctx.Err() != nil {
			return
		}
		log.Printf("broker: task exited: %v", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(seq.Next()):
		}
	}
}

// Offsets tracks the committed offset.
type Offsets struct {
	committed atomic.Int64
}

// Advance moves the offset forward, never back (CAS loop).
func (o *Offsets) Advance(to int64) bool {
	for {
		cur := o.committed.Load()
		if to <= cur {
			return false
		}
		if o.committed.CompareAndSwap(cur, to) {
			return true
		}
	}
}

// Poller long-polls a queue and pauses a jittered second after errors.
type Poller struct {
	conn   *Conn
	handle func(Message)
}

// Run consumes until ctx is done.
func (p *Poller) Run(ctx context.Context) error {
	for {
		m, err := p.conn.Fetch(ctx)
		if err != nil {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second + time.Duration(rand.Int64N(int64(time.Second)))):
			}
			continue
		}
		p.handle(m)
	}
}

// Reader commits nothing and retries a failed fetch at once.
type Reader struct {
	conn   *Conn
	handle func(Message)
}

// Run spins on fetch errors without pausing.
func (r *Reader) Run(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := r.conn.Fetch(ctx)
		if err != nil {
			log.Printf("broker: fetch: %v", err)
			continue
		}
		r.handle(m)
	}
}
