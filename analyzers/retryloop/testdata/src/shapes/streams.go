package shapes

import (
	"errors"
	"net"
	"time"
)

// A read of a stream hands back the stream's next item: a loop that
// reads again after an item it cannot use (a short read, a reply to an
// older query) reads on, it does not run the same operation again.

type msg struct{ id uint16 }

type msgConn struct{ net.Conn }

var errShort = errors.New("short read")

// ReadMsg reads the next message from the connection.
func (c *msgConn) ReadMsg() (*msg, error) {
	var b [2]byte
	if _, err := c.Read(b[:]); err != nil {
		return nil, err
	}
	return &msg{id: uint16(b[0])<<8 | uint16(b[1])}, nil
}

// Replies to older queries are dropped until this one's arrives.
func exchangeReply(c *msgConn, id uint16) (*msg, error) {
	for {
		r, err := c.ReadMsg()
		if err != nil || r.id == id {
			return r, err
		}
	}
}

// Short reads and out-of-order replies are skipped.
func skipShort(c *msgConn, id uint16) (*msg, error) {
	c.SetReadDeadline(time.Now().Add(time.Second))
	for {
		r, err := c.ReadMsg()
		if err != nil {
			if errors.Is(err, errShort) || r != nil && r.id != id {
				continue
			}
			return nil, err
		}
		if r.id == id {
			return r, nil
		}
	}
}

// Read itself, until a full header has come.
func readHeader(c net.Conn) ([]byte, error) {
	buf := make([]byte, 0, 4)
	for {
		var b [4]byte
		n, err := c.Read(b[:])
		if err != nil {
			return nil, err
		}
		buf = append(buf, b[:n]...)
		if len(buf) >= 4 {
			return buf, nil
		}
	}
}

// A write is no read: sending the same bytes again after a failure is a
// retry.
func resend(c net.Conn, b []byte) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=unknown remote attempts=3`
		if _, err = c.Write(b); err == nil {
			return nil
		}
	}
	return err
}
