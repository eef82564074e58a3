// Package queue holds the messaging side: a broker connection, a consumer
// that survives broker restarts, a producer, a worker pool and a scheduler.
package queue

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"sync"
)

// Message is one broker message.
type Message struct {
	ID   string          `json:"id"`
	Body json.RawMessage `json:"body"`
}

// BrokerConn is a connection to the broker speaking a JSON-lines protocol.
type BrokerConn struct {
	mu   sync.Mutex
	conn net.Conn
	rd   *bufio.Reader
}

// NewBrokerConn wraps an established connection.
func NewBrokerConn(c net.Conn) *BrokerConn {
	return &BrokerConn{conn: c, rd: bufio.NewReader(c)}
}

func (b *BrokerConn) call(ctx context.Context, line string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if dl, ok := ctx.Deadline(); ok {
		if err := b.conn.SetDeadline(dl); err != nil {
			return "", err
		}
	}
	if _, err := b.conn.Write([]byte(line + "\n")); err != nil {
		return "", err
	}
	reply, err := b.rd.ReadString('\n')
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(reply, "ERR ") {
		return "", fmt.Errorf("broker: %s", strings.TrimSpace(reply[4:]))
	}
	return reply, nil
}

// Receive long-polls for the next batch of messages.
func (b *BrokerConn) Receive(ctx context.Context) ([]Message, error) {
	reply, err := b.call(ctx, "RECV 32")
	if err != nil {
		return nil, err
	}
	var msgs []Message
	if err := json.Unmarshal([]byte(reply), &msgs); err != nil {
		return nil, err
	}
	return msgs, nil
}

// Ack removes a message for good.
func (b *BrokerConn) Ack(ctx context.Context, id string) error {
	_, err := b.call(ctx, "ACK "+id)
	return err
}

// Nack hands a message back for redelivery.
func (b *BrokerConn) Nack(ctx context.Context, id string) error {
	_, err := b.call(ctx, "NACK "+id)
	return err
}
