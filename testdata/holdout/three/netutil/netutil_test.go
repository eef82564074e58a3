package netutil

import (
	"errors"
	"net"
	"net/textproto"
	"strings"
	"testing"
	"time"
)

// waitPort waits for a server started by the test to listen.
func waitPort(t *testing.T, addr string) {
	t.Helper()
	for i := 0; i < 100; i++ {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("nothing listening on %s", addr)
}

// serveSMTP runs a fake relay that accepts every message.
func serveSMTP(ln net.Listener) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer conn.Close()
			tp := textproto.NewConn(conn)
			tp.PrintfLine("220 fake ESMTP")
			inData := false
			for {
				line, err := tp.ReadLine()
				if err != nil {
					return
				}
				switch {
				case inData && line == ".":
					inData = false
					tp.PrintfLine("250 queued")
				case inData:
				case strings.HasPrefix(line, "DATA"):
					inData = true
					tp.PrintfLine("354 go ahead")
				case strings.HasPrefix(line, "QUIT"):
					tp.PrintfLine("221 bye")
					return
				default:
					tp.PrintfLine("250 ok")
				}
			}
		}()
	}
}

func TestSendMail(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go serveSMTP(ln)
	waitPort(t, ln.Addr().String())
	if err := SendMail(ln.Addr().String(), nil, "a@example.com", []string{"b@example.com"}, []byte("Subject: hi\r\n\r\nhi\r\n")); err != nil {
		t.Fatal(err)
	}
}

var errFlaky = errors.New("flaky")

func TestRetry(t *testing.T) {
	calls := 0
	err := Retry(3, time.Millisecond, func() error {
		calls++
		if calls < 3 {
			return errFlaky
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("err = %v, calls = %d", err, calls)
	}
}
