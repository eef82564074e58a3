package testsoff

import (
	"net"
	"testing"
	"time"
)

// Test files are not analysed by default: a test process is no fleet.
func TestDial(t *testing.T) {
	for i := 0; i < 3; i++ {
		conn, err := net.Dial("tcp", "127.0.0.1:1")
		if err == nil {
			conn.Close()
			return
		}
		time.Sleep(time.Duration(i) * time.Millisecond)
	}
}
