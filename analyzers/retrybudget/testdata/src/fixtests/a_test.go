package fixtests

import (
	"net"
	"testing"
	"time"
)

// A test's retry of the same dependency shares the package's budget.
func TestDial(t *testing.T) {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		conn, err := net.Dial("tcp", "127.0.0.1:1")
		if err == nil {
			conn.Close()
			return
		}
		time.Sleep(time.Duration(i) * time.Millisecond)
	}
}
