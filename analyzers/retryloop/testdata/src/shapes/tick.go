package shapes

import (
	"log"
	"net/http"
	"time"
)

// Loops over ticks: each round waits for the next tick. One that leaves
// on success retries at the ticker's pace; one that goes on after a
// success is periodic.

func untilUp(url string) *http.Response {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for range t.C { // want `retry site: shape=bare bound=none delay=fixed jitter=no ctx=none remote attempts=unbounded`
		resp, err := http.Get(url)
		if err == nil {
			return resp
		}
		log.Printf("not up yet: %v", err)
	}
	return nil
}

func untilUpTick(url string) error {
	n := 0
	for range time.Tick(500 * time.Millisecond) { // want `retry site: shape=bare bound=counter delay=fixed jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if n++; n == 5 {
			return err
		}
	}
	return nil
}

// Look-alikes.

// Periodic: success waits for the next tick as failure does.
func pushEvery(url string) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for range t.C {
		resp, err := http.Get(url)
		if err != nil {
			log.Printf("push: %v", err)
			continue
		}
		resp.Body.Close()
	}
}

// Nothing that fails is called.
func countTicks(stop chan struct{}) int {
	n := 0
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for range t.C {
		select {
		case <-stop:
			return n
		default:
		}
		n++
	}
	return n
}
