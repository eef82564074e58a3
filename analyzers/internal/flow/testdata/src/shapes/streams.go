package shapes

import (
	"errors"
	"net"
)

// A read of a stream hands back its next item: reading again reads on.

type frame struct{ id uint16 }

type frameConn struct{ net.Conn }

var errShortFrame = errors.New("short frame")

func (c *frameConn) ReadFrame() (*frame, error) {
	var b [2]byte
	if _, err := c.Read(b[:]); err != nil {
		return nil, err
	}
	return &frame{id: uint16(b[0])<<8 | uint16(b[1])}, nil
}

// Short frames are skipped until a whole one comes.
func nextFrame(c *frameConn) (*frame, error) {
	for {
		f, err := c.ReadFrame()
		if errors.Is(err, errShortFrame) {
			continue
		}
		return f, err
	}
}

// A write is no read: the same bytes sent again after a failure.
func rewrite(c net.Conn, b []byte) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.Write(b); err == nil { // want `retry site`
			return nil
		}
	}
	return err
}
