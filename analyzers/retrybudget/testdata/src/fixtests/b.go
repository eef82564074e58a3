package fixtests

import (
	"errors"
	"net"
	"time"
)

// The package's own retry: its budget is declared here, in both the
// package and its test variant, so the two never declare it twice.
func dial(addr string) (net.Conn, error) {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			return conn, nil
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return nil, errors.New("gave up")
}
