package queue

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Producer batches messages and writes them to the broker.
type Producer struct {
	mu   sync.Mutex
	conn net.Conn
	buf  bytes.Buffer
}

// NewProducer writes to an established connection.
func NewProducer(c net.Conn) *Producer { return &Producer{conn: c} }

// Publish buffers one message line.
func (p *Producer) Publish(line []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf.Write(line)
	p.buf.WriteByte('\n')
}

func (p *Producer) flush(ctx context.Context) error {
	if p.buf.Len() == 0 {
		return nil
	}
	if dl, ok := ctx.Deadline(); ok {
		if err := p.conn.SetWriteDeadline(dl); err != nil {
			return err
		}
	}
	n, err := p.conn.Write(p.buf.Bytes())
	p.buf.Next(n)
	return err
}

// Close flushes what is buffered and closes the connection. It runs from
// the shutdown hook, after the request contexts are gone.
func (p *Producer) Close() (err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer func() {
		if cerr := p.conn.Close(); err == nil {
			err = cerr
		}
	}()

	ctx := context.Background()
	for attempt := 0; attempt < 3; attempt++ {
		if err = p.flush(ctx); err == nil {
			return nil
		}
		time.Sleep(budget.Jitter(100 * time.Millisecond << attempt))
	}
	return fmt.Errorf("queue: final flush: %w", err)
}
