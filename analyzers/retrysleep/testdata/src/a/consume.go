package a

import (
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

// A consume loop goes on after a success. Its error branch that calls
// the remote dependency again at once spins while the dependency is down.

type events struct {
	c       *http.Client
	stopped chan struct{}
}

func (e *events) since(n int) ([]int, error) {
	resp, err := e.c.Get("http://127.0.0.1/rest/events")
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return []int{n + 1}, nil
}

func (e *events) longPoll() {
	cursor := 0
	for { // want `loop calls again at once after a failure: while the dependency is down it spins`
		select {
		case <-e.stopped:
			return
		default:
		}
		evs, err := e.since(cursor)
		if err != nil {
			log.Println("events:", err)
			continue
		}
		for _, ev := range evs {
			cursor = ev
		}
	}
}

// The pause between rounds is skipped on an error.
func (e *events) pausedOnSuccessOnly() {
	for { // want `loop calls again at once after a failure`
		evs, err := e.since(0)
		if err != nil {
			continue
		}
		_ = evs
		time.Sleep(time.Second)
	}
}

// Look-alikes.

// A read under a deadline goes on after a timeout: the read waited.
func readDeadline(conn net.Conn, buf []byte) {
	for {
		conn.SetReadDeadline(time.Now().Add(time.Second))
		n, err := conn.Read(buf)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			continue
		}
		if err != nil {
			return
		}
		_ = n
	}
}

func readDeadlineSentinel(conn net.Conn, buf []byte) {
	for {
		conn.SetReadDeadline(time.Now().Add(time.Second))
		_, err := conn.Read(buf)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			continue
		}
		if err != nil {
			return
		}
	}
}

// A supervisor whose error branch only logs: failure and success go
// round alike, no test of the outcome sends it round.
func (e *events) supervise() {
	for {
		_, err := e.since(0)
		if err != nil {
			log.Println(err)
		}
	}
}

// Each round starts with a tick: the failure waits for the next one.
func (e *events) ticked() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for range t.C {
		evs, err := e.since(0)
		if err != nil {
			continue
		}
		_ = evs
	}
}

// A read loop leaves on an error.
func (e *events) readUntilError() {
	for {
		if _, err := e.since(0); err != nil {
			return
		}
	}
}

// Local work called again at once is no storm.
func localAgain(r io.Reader, buf []byte) {
	for {
		if _, err := io.ReadFull(r, buf); err != nil {
			continue
		}
		log.Println(buf)
	}
}

// The error branch waits a backoff of its own.
func (e *events) backsOff(next func() time.Duration) {
	for {
		evs, err := e.since(0)
		if err != nil {
			time.Sleep(next())
			continue
		}
		_ = evs
	}
}

// Errors are ignored: a failure falls through the round as a success
// does (warming connections, each round the same).
func (e *events) warm() {
	for range 3 {
		if evs, err := e.since(0); err == nil {
			_ = evs
		}
	}
}

// Each round hands a new connection to the call that fails: a failed
// handshake is that connection's, the next round another's.
func (e *events) handshakes(l net.Listener, cfg *tls.Config) {
	for {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		tc := tls.Client(conn, cfg)
		if err := tc.Handshake(); err != nil {
			tc.Close()
			continue
		}
		e.c.Get("http://127.0.0.1/" + tc.RemoteAddr().String())
	}
}

// A timeout told by the concrete net error type.
func readOpTimeout(conn net.Conn, buf []byte) {
	for {
		conn.SetReadDeadline(time.Now().Add(time.Second))
		_, err := conn.Read(buf)
		if err != nil {
			if oe, ok := err.(*net.OpError); ok && oe.Timeout() {
				continue
			}
			return
		}
	}
}
