package shapes

import (
	"errors"
	"net"
	"time"
)

// A retry flag returned beside the error decides: the operation sets it
// only with an error, so a success leaves the loop.

type flagConn struct {
	conn net.Conn
	addr string
	max  int
}

func (f *flagConn) write(b []byte) (bool, error) {
	if f.conn == nil {
		c, err := net.Dial("tcp", f.addr)
		if err != nil {
			return false, err // the dial is not retried here
		}
		f.conn = c
	}
	if _, err := f.conn.Write(b); err != nil {
		f.conn = nil
		return true, err
	}
	return false, nil
}

func (f *flagConn) send(b []byte) error {
	for i := 0; i < f.max; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=unknown remote$`
		if retry, err := f.write(b); !retry {
			return err
		}
	}
	return errors.New("send: out of attempts")
}

// Look-alike: a "more" flag that is true with a nil error goes round on
// success: paging, not a retry.
func (f *flagConn) page(b []byte) (bool, error) {
	n, err := f.conn.Write(b)
	if err != nil {
		return false, err
	}
	if n < len(b) {
		return true, nil
	}
	return false, nil
}

func (f *flagConn) drain(b []byte) error {
	for i := 0; i < f.max; i++ {
		if more, err := f.page(b); !more {
			return err
		}
	}
	return nil
}

// Look-alike: a "fatal" flag, true only beside an error that must not be
// retried, used as if fatal { return }: success goes round (a read loop),
// so this is a consume loop whose error branch waits, not a retry whose
// success leaves.
func (f *flagConn) read(b []byte) (bool, error) {
	_, err := f.conn.Read(b)
	if err == nil {
		return false, nil
	}
	if errors.Is(err, net.ErrClosed) {
		return true, err
	}
	return false, err
}

func (f *flagConn) readLoop(b []byte) error {
	for { // want `retry site: shape=bare consume bound=none delay=fixed jitter=no ctx=unknown remote attempts=unbounded$`
		if fatal, err := f.read(b); fatal {
			return err
		} else if err != nil {
			time.Sleep(time.Second)
		}
	}
}
