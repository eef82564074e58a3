package a

import (
	"errors"
	"log"
	"net/http"
	"time"
)

// A schedule of equal delays, a lock retried on an armed channel, and a
// ticker that paces the attempts all wait the same delay every time.

var retryDelays = []time.Duration{time.Second, time.Second, time.Second}

var relockDelay = 10 * time.Second

func scheduled(url string) error {
	var err error
	for _, d := range retryDelays {
		var resp *http.Response
		if resp, err = http.Get(url); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(d) // want `retry waits a fixed delay`
	}
	return err
}

type locker struct {
	url  string
	stop chan struct{}
}

func (l *locker) acquire() (<-chan struct{}, error) {
	resp, err := http.Get(l.url)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return make(chan struct{}), nil
}

func (l *locker) hold() {
	for {
		var retry <-chan time.Time
		lost, err := l.acquire()
		if err != nil {
			retry = time.After(relockDelay)
		}
		select { // want `retry waits a fixed delay`
		case <-retry:
			continue
		case <-lost:
			continue
		case <-l.stop:
			return
		}
	}
}

func paced(url string) (*http.Response, error) {
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	n := 0
	for range t.C { // want `retry waits a fixed delay`
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
		if n++; n == 3 {
			return nil, err
		}
	}
	return nil, errors.New("unreachable")
}

// Look-alikes: a rising schedule, a periodic push.

func rising(url string) error {
	var err error
	for _, d := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		var resp *http.Response
		if resp, err = http.Get(url); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(d)
	}
	return err
}

func periodic(url string) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for range t.C {
		resp, err := http.Get(url)
		if err != nil {
			log.Print(err)
			continue
		}
		resp.Body.Close()
	}
}
