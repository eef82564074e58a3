package shapes

import (
	"context"
	"net"
	"time"
)

// A test hook (an unexported package function variable the package's
// own non-test files never set) is nil in production: a branch that
// calls it only when it is set is never taken.

var testHookConnect func(err error) bool

var onConnect func(err error) bool

func init() { onConnect = func(err error) bool { return err == nil } }

// A watch loop: success reads until the connection fails and goes round;
// the hook's exit is not taken in production, so it is a consume loop.
func watchConns(ctx context.Context, addr string) {
	var d net.Dialer
	for ctx.Err() == nil { // want `retry site: shape=bare consume bound=deadline delay=fixed jitter=no ctx=caller consulted remote$`
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if f := testHookConnect; f != nil && !f(err) {
			return
		}
		buf := make([]byte, 64)
		for {
			if _, err := conn.Read(buf); err != nil {
				break
			}
		}
	}
}

// Look-alike: a hook the package sets itself decides: its exit after
// a success makes the loop a retry.
func watchConnsHooked(ctx context.Context, addr string) {
	var d net.Dialer
	for ctx.Err() == nil { // want `retry site: shape=bare bound=deadline delay=fixed jitter=no ctx=caller consulted remote$`
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if f := onConnect; f != nil && !f(err) {
			return
		}
		buf := make([]byte, 64)
		for {
			if _, err := conn.Read(buf); err != nil {
				break
			}
		}
	}
}
