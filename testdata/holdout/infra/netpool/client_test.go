package netpool

import (
	"context"
	"io"
	"net"
	"testing"
	"time"
)

// startEcho runs an echo server for the duration of the test.
func startEcho(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return // listener closed at the end of the test
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return ln
}

func TestClientDo(t *testing.T) {
	ln := startEcho(t)
	c := NewClient(ln.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	got, err := c.Do(ctx, "PING")
	if err != nil {
		t.Fatal(err)
	}
	if got != "PING" {
		t.Fatalf("got %q, want PING", got)
	}
}
