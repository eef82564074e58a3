package a

import (
	"errors"
	"net"
	"time"
)

var errQuit = errors.New("quit")

type watcher struct {
	addr  string
	quitc chan struct{}
	done  chan struct{}
}

func (w *watcher) fetch(quit chan struct{}) error {
	select {
	case <-quit:
		return errQuit
	default:
	}
	c, err := net.Dial("tcp", w.addr)
	if err == nil {
		c.Close()
	}
	return err
}

// The loop hands its stop channel on but sleeps without watching it.
func (w *watcher) loop() {
	for i := 0; i < 10; i++ { // want `retry loop runs without a deadline: its attempts use no context and no client timeout`
		err := w.fetch(w.quitc)
		if err == nil || errors.Is(err, errQuit) {
			return
		}
		time.Sleep(time.Second) // want `retry sleeps while quitc is in scope and never checks it`
	}
}

// Look-alikes: a stop channel the function closes is its output; one the
// loop never mentions is not the loop's to watch.
func (w *watcher) stopAfter() {
	defer close(w.done)
	for i := 0; i < 10; i++ { // want `retry loop runs without a deadline: its attempts use no context and no client timeout`
		if err := w.fetch(w.done); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

func (w *watcher) plain() {
	for i := 0; i < 10; i++ { // want `retry loop runs without a deadline: its attempts use no context and no client timeout`
		if err := w.fetch(nil); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}
