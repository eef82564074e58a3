package shapes

import (
	flagpkg "flag"
	"math/rand"
	"net"
	"os"
	"strconv"
	"time"
)

// A delay kept in a package variable: its values are every value the
// package's own files give it. A wait helper that doubles it between
// calls grows it; one only ever set to constants is fixed; one whose
// address is taken (a flag), that is set from outside input, or that is
// exported, is unknown.

var redialDelay = 100 * time.Millisecond

func redialWait() {
	time.Sleep(redialDelay)
	redialDelay *= 2
	if redialDelay > 30*time.Second {
		redialDelay = 30 * time.Second
	}
}

func redial(addr string) net.Conn {
	for { // want `retry site: shape=bare bound=none delay=growing jitter=no ctx=none remote attempts=unbounded$`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			redialDelay = 100 * time.Millisecond
			return c
		}
		redialWait()
	}
}

// Doubled plus a draw: jittered, its growth unknown (as for a local).
var jitteredDelay = time.Second

func jitteredWait() {
	time.Sleep(jitteredDelay)
	jitteredDelay = jitteredDelay*2 + time.Duration(rand.Int63n(int64(time.Second)))
}

func redialJittered(addr string) net.Conn {
	for { // want `retry site: shape=bare bound=none delay=unknown jitter=yes ctx=none remote attempts=unbounded$`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		jitteredWait()
	}
}

// Negatives: the delay cannot be known.

var flagDelay time.Duration

func init() {
	flagpkg.DurationVar(&flagDelay, "redial-delay", time.Second, "")
}

func redialFlag(addr string) net.Conn {
	for { // want `retry site: shape=bare bound=none delay=unknown jitter=no ctx=none remote attempts=unbounded$`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		time.Sleep(flagDelay)
		flagDelay *= 2
	}
}

var envDelay = time.Second

func init() {
	if s, err := strconv.Atoi(os.Getenv("REDIAL_MS")); err == nil {
		envDelay = time.Duration(s) * time.Millisecond
	}
}

func redialEnv(addr string) net.Conn {
	for { // want `retry site: shape=bare bound=none delay=unknown jitter=no ctx=none remote attempts=unbounded$`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		time.Sleep(envDelay)
	}
}

// RedialDelay may be set by any importer.
var RedialDelay = time.Second

func redialExported(addr string) net.Conn {
	for { // want `retry site: shape=bare bound=none delay=unknown jitter=no ctx=none remote attempts=unbounded$`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		time.Sleep(RedialDelay)
		RedialDelay *= 2
	}
}
