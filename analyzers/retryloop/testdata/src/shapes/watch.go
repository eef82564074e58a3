package shapes

import (
	"log"
	"net/http"
	"time"
)

// Long-lived watchers and lock holders: on success they go on (a consume
// loop), on error they wait and call again. The waits are channels that
// are nil until set, and package variables tuned only by tests.

var (
	lockRetry  = 10 * time.Second
	listRetry  = 10 * time.Second
	pollPeriod = 5 * time.Second
	tunedRetry = 10 * time.Second
)

// SetTunedRetry lets production code change the delay: not a constant.
func SetTunedRetry(d time.Duration) { tunedRetry = d }

type holder struct {
	url  string
	stop chan struct{}
}

func (h *holder) lock() (<-chan struct{}, error) {
	resp, err := http.Get(h.url)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return make(chan struct{}), nil
}

func (h *holder) get(index uint64) (uint64, error) {
	resp, err := http.Get(h.url)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return index + 1, nil
}

// The retry channel is nil unless the lock failed; the lost channel is
// nil when it failed (a result beside an error).
func (h *holder) holdLock() {
	for { // want `retry site: shape=bare consume bound=none delay=fixed jitter=no ctx=none consulted remote attempts=unbounded`
		var retryCh <-chan time.Time
		lostCh, err := h.lock()
		if err != nil {
			log.Printf("lock: %v", err)
			retryCh = time.After(lockRetry)
		}
		select {
		case <-retryCh:
			continue
		case <-lostCh:
			continue
		case <-h.stop:
			return
		}
	}
}

// A blocking-query watch written with goto: error waits and jumps back.
func (h *holder) watch() {
	var index uint64
START:
	next, err := h.get(index)
	if err != nil {
		select {
		case <-time.After(listRetry):
			goto START // want `retry site: shape=goto consume bound=none delay=fixed jitter=no ctx=none consulted remote`
		case <-h.stop:
			return
		}
	}
	index = next
	goto START
}

// The error branch jumps forward to the wait, which jumps back.
func (h *holder) forward() error {
START:
	_, err := h.get(0)
	if err != nil {
		goto WAIT
	}
	return nil
WAIT:
	time.Sleep(lockRetry)
	goto START // want `retry site: shape=goto bound=none delay=fixed jitter=no ctx=none remote attempts=unbounded`
}

// Look-alikes.

// A delay production code may change is unknown, not fixed.
func (h *holder) tuned() {
	for { // want `retry site: shape=bare consume bound=none delay=unknown jitter=no ctx=none consulted remote attempts=unbounded`
		var retryCh <-chan time.Time
		lostCh, err := h.lock()
		if err != nil {
			retryCh = time.After(tunedRetry)
		}
		select {
		case <-retryCh:
			continue
		case <-lostCh:
			continue
		case <-h.stop:
			return
		}
	}
}

// Periodic: success and failure wait the same way, so the wait is the
// period, not a delay between attempts.
func (h *holder) periodic() {
START:
	if _, err := h.get(0); err != nil {
		log.Printf("get: %v", err)
		goto WAIT
	}
	log.Printf("ok")
WAIT:
	select {
	case <-time.After(pollPeriod):
		goto START
	case <-h.stop:
		return
	}
}

// The timer is armed only on success: on failure the channel stays nil,
// the loop can only stop, and nothing is retried.
func (h *holder) armedOnSuccess() {
	for {
		var again <-chan time.Time
		if _, err := h.get(0); err == nil {
			again = time.After(pollPeriod)
		}
		select {
		case <-again:
			continue
		case <-h.stop:
			return
		}
	}
}

// A generated state machine jumps between many labels: not a retry, and
// not walked.
func (h *holder) states(in []byte) error {
	i := 0
s0:
	if i >= len(in) {
		return nil
	}
	if _, err := h.get(uint64(in[i])); err != nil {
		goto s0
	}
	i++
	goto s1
s1:
	i++
	goto s2
s2:
	i++
	goto s3
s3:
	i++
	goto s4
s4:
	i++
	goto s5
s5:
	i++
	goto s6
s6:
	i++
	goto s7
s7:
	i++
	goto s8
s8:
	goto s0
}

// A session: on success a call handed the stop channel holds what was set
// up until it fails or is stopped; the wait that follows is the delay
// before setting it up again, fixed, not a period.
func (h *holder) session() {
START:
	id, err := h.get(0)
	if err != nil {
		log.Printf("create: %v", err)
		goto WAIT
	}
	if err := h.renew(id, h.stop); err != nil {
		log.Printf("renew: %v", err)
	}
WAIT:
	select {
	case <-time.After(pollPeriod):
		goto START // want `retry site: shape=goto consume bound=none delay=fixed jitter=no ctx=none consulted remote`
	case <-h.stop:
		return
	}
}

func (h *holder) renew(id uint64, stop <-chan struct{}) error {
	for {
		select {
		case <-stop:
			return nil
		case <-time.After(time.Second):
			if _, err := h.get(id); err != nil {
				return err
			}
		}
	}
}

// Periodic still: the channel the success path hands on is not one the
// function waits on.
func (h *holder) periodicHandsOther(done chan struct{}) {
START:
	if _, err := h.get(0); err != nil {
		goto WAIT
	}
	h.notify(done)
WAIT:
	select {
	case <-time.After(pollPeriod):
		goto START
	case <-h.stop:
		return
	}
}

func (h *holder) notify(done chan struct{}) error { close(done); return nil }
