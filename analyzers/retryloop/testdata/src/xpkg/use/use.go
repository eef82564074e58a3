package use

import (
	"net"
	"sync/atomic"
	"time"

	"xpkg/util"
)

func jittered(n int) time.Duration {
	base := 1 << min(10, n)
	return time.Duration(base+util.Rand(base)) * time.Millisecond
}

func plain(n int) time.Duration {
	base := 1 << min(10, n)
	return time.Duration(base+util.Half(base)) * time.Millisecond
}

// The wait is the stepped sleep; its delay is jittered through util.Rand.
func dialSteps(stop *uint32, addr string) net.Conn {
	for n := 0; atomic.LoadUint32(stop) == 0; n++ { // want `retry site: shape=bare bound=none delay=unknown jitter=yes ctx=none remote`
		if c, err := net.Dial("tcp", addr); err == nil {
			return c
		}
		util.SleepSteps(stop, jittered(n))
	}
	return nil
}

// Look-alike: the same loop over a delay with no random part grows
// without jitter.
func dialPlain(stop *uint32, addr string) net.Conn {
	for n := 0; atomic.LoadUint32(stop) == 0; n++ { // want `retry site: shape=bare bound=none delay=growing jitter=no ctx=none remote`
		if c, err := net.Dial("tcp", addr); err == nil {
			return c
		}
		util.SleepSteps(stop, plain(n))
	}
	return nil
}

// Look-alike: Drain is no wait: the loop retries at once.
func dialDrain(addr string) net.Conn {
	for { // want `retry site: shape=bare bound=none delay=absent jitter=no ctx=none remote`
		if c, err := net.Dial("tcp", addr); err == nil {
			return c
		}
		util.Drain(time.Second, func() error { return nil })
	}
}
