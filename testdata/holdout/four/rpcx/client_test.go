package rpcx

import (
	"context"
	"net"
	"net/rpc"
	"testing"
	"time"
)

type Registry struct{}

func (Registry) Lookup(sku string, loc *string) error {
	*loc = "aisle-" + sku
	return nil
}

func startServer(t *testing.T) string {
	t.Helper()
	srv := rpc.NewServer()
	if err := srv.Register(Registry{}); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go srv.Accept(l)
	return l.Addr().String()
}

// waitListening waits until something accepts connections on addr.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	for i := 0; i < 50; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never came up", addr)
}

func TestCall(t *testing.T) {
	addr := startServer(t)
	waitListening(t, addr)
	c := New(addr)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var got string
	if err := c.Call(ctx, "Registry.Lookup", "a1", &got); err != nil || got != "aisle-a1" {
		t.Fatalf("Call = %q, %v", got, err)
	}
	loc, err := c.Lookup("d4", 3)
	if err != nil || loc != "aisle-d4" {
		t.Fatalf("Lookup = %q, %v", loc, err)
	}
}

func TestDialFirstSkipsDeadReplica(t *testing.T) {
	addr := startServer(t)
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadAddr := dead.Addr().String()
	dead.Close()
	rc, err := DialFirst([]string{deadAddr, addr}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
}
