package shapes

import (
	"net"
	"time"

	"google.golang.org/grpc/codes"
	gstatus "google.golang.org/grpc/status"
)

func connect(addr string) error {
	c, err := net.Dial("tcp", addr)
	if err == nil {
		c.Close()
	}
	return err
}

// The retry decision is the gRPC code of the error: status.Code(nil) is
// OK, so success leaves by the else branch.
func connectRetry(addr string, n int) error {
	var err error
	for range n { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=none remote`
		err = connect(addr)
		if code := gstatus.Code(err); code == codes.Unavailable || code == codes.DeadlineExceeded {
			time.Sleep(time.Second)
		} else {
			break
		}
	}
	return err
}

// The same decision in a switch on the code.
func connectSwitch(addr string) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=none remote`
		err := connect(addr)
		switch gstatus.Code(err) {
		case codes.OK:
			return nil
		case codes.Unavailable:
			time.Sleep(time.Second)
			continue
		}
		return err
	}
	return nil
}

// Look-alike: a loop that goes on while the code is OK (a stream of
// successful reads) and stops on any error is no retry.
func connectWhileOK(addr string) {
	for {
		err := connect(addr)
		if gstatus.Code(err) != codes.OK {
			return
		}
		time.Sleep(time.Second)
	}
}
