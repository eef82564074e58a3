package use

import (
	"net"
	"time"

	"xpkg/util"
)

// A backoff object built without its jitter draws none: the doubling is
// un-jittered. Built with it, or handed to code that may set it, it is not.

func reconnect(addr string) net.Conn {
	boff := &util.Backoff{Max: 5 * time.Minute}
	for { // want `retry site: shape=bare bound=none delay=growing jitter=no ctx=none remote attempts=unbounded`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		time.Sleep(boff.Duration())
	}
}

func reconnectJittered(addr string) net.Conn {
	boff := &util.Backoff{Max: 5 * time.Minute, Jitter: time.Second}
	for { // want `retry site: shape=bare bound=none delay=growing jitter=yes ctx=none remote attempts=unbounded`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		time.Sleep(boff.Duration())
	}
}

func reconnectConfigured(addr string, configure func(*util.Backoff)) net.Conn {
	boff := &util.Backoff{Max: 5 * time.Minute}
	configure(boff)
	for { // want `retry site: shape=bare bound=none delay=growing jitter=yes ctx=none remote attempts=unbounded`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		time.Sleep(boff.Duration())
	}
}

func reconnectSetLater(addr string, j time.Duration) net.Conn {
	boff := &util.Backoff{Max: 5 * time.Minute}
	boff.Jitter = j
	for { // want `retry site: shape=bare bound=none delay=growing jitter=yes ctx=none remote attempts=unbounded`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		time.Sleep(boff.Duration())
	}
}
