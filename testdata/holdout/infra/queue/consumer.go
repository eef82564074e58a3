package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math"
	"net"
	"time"

	"github.com/retrylint/retrylint/budget"
)

const (
	initialBackoff = 250 * time.Millisecond
	maxBackoff     = 30 * time.Second
)

// Consumer pulls batches from the broker and hands each message to Handle.
type Consumer struct {
	src    *BrokerConn
	Handle func(context.Context, Message) error
}

// NewConsumer returns a consumer reading from src.
func NewConsumer(src *BrokerConn, h func(context.Context, Message) error) *Consumer {
	return &Consumer{src: src, Handle: h}
}

// Run consumes until ctx ends. Broker errors (a restart, a failover) are
// waited out with a growing pause; handler errors nack the message.
func (c *Consumer) Run(ctx context.Context) error {
	backoff := initialBackoff
	for {
		msgs, err := c.src.Receive(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			log.Printf("queue: receive: %v (retrying in %v)", err, backoff)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(backoff):
			}
			backoff = min(backoff*2, maxBackoff)
			continue
		}
		backoff = initialBackoff
		for _, m := range msgs {
			if err := c.Handle(ctx, m); err != nil {
				log.Printf("queue: message %s: %v", m.ID, err)
				_ = c.Nack(ctx, m.ID)
				continue
			}
			if err := c.ack(ctx, m.ID); err != nil {
				log.Printf("queue: %v", err)
			}
		}
	}
}

// expDelay is the pause before ack retry n.
func expDelay(attempt int) time.Duration {
	return time.Duration(math.Pow(2, float64(attempt))) * 50 * time.Millisecond
}

// ack acknowledges one message. A lost ack means a redelivery, so it is
// worth a few attempts.
func (c *Consumer) ack(ctx context.Context, id string) (err error) {
	for attempt := 0; attempt < 4; attempt++ {
		if err = c.src.Ack(ctx, id); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(expDelay(attempt)):
		}
	}
	return fmt.Errorf("queue: ack %s: %w", id, err)
}

// brokerBudget is shared by every nack in the process.
var brokerBudget budget.Adaptive

// Nack hands a message back, with the bundled retry policy.
func (c *Consumer) Nack(ctx context.Context, id string) error {
	return budget.Do(ctx, func(ctx context.Context) error {
		return c.src.Nack(ctx, id)
	}, budget.WithBudget(&brokerBudget))
}

// Subscriber holds a push subscription open, reconnecting whenever the
// broker drops it.
type Subscriber struct {
	Addr    string
	Topic   string
	Dialer  net.Dialer
	Deliver func(Message)
}

// Listen streams messages to Deliver until ctx ends.
func (s *Subscriber) Listen(ctx context.Context) error {
	for ctx.Err() == nil {
		conn, err := s.Dialer.DialContext(ctx, "tcp", s.Addr)
		if err != nil {
			log.Printf("queue: subscribe %s: %v", s.Topic, err)
			time.Sleep(5 * time.Second)
			continue
		}
		s.stream(ctx, conn) // returns when the broker closes the stream
		conn.Close()
	}
	return ctx.Err()
}

// stream decodes pushed messages until the connection fails.
func (s *Subscriber) stream(ctx context.Context, conn net.Conn) {
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	dec := json.NewDecoder(conn)
	for {
		var m Message
		if err := dec.Decode(&m); err != nil {
			return
		}
		s.Deliver(m)
	}
}
