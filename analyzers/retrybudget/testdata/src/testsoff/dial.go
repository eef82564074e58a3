package testsoff

import (
	"net"
	"time"
)

// Production code is analysed whatever the tests setting.
func dial() (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		var conn net.Conn
		conn, err = net.Dial("tcp", "127.0.0.1:1")
		if err == nil {
			return conn, nil
		}
		time.Sleep(time.Duration(i) * time.Millisecond)
	}
	return nil, err
}
