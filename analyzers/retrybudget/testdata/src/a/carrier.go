package a

import (
	"bytes"
	"errors"
	"net/http"
	"time"
)

// rpmResponse carries a collector call's error instead of an error
// result: the operation's outcome is resp.GetError().
type rpmResponse struct {
	err  error
	body []byte
}

func (r *rpmResponse) GetError() error    { return r.err }
func (r *rpmResponse) IsDisconnect() bool { return false }

type reply struct{ runID string }

func collect(hc *http.Client, url string, body []byte) *rpmResponse {
	resp, err := hc.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return &rpmResponse{err: err}
	}
	defer resp.Body.Close()
	return &rpmResponse{}
}

func connectOnce(hc *http.Client) (*reply, *rpmResponse) {
	resp := collect(hc, "https://collector.example/connect", nil)
	if resp.GetError() != nil {
		return nil, resp
	}
	return &reply{}, resp
}

// connectLoop retries a call whose failure is carried by its second
// result, forever.
func connectLoop(hc *http.Client, out chan<- *reply) {
	attempts := 0
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		r, resp := connectOnce(hc)
		if r != nil {
			out <- r
			return
		}
		if resp.IsDisconnect() {
			return
		}
		time.Sleep(time.Duration(15*(attempts+1)) * time.Second)
		attempts++
	}
}

// harvestLoop tests the carried error inline and retries.
func harvestLoop(hc *http.Client, body []byte) {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		resp := collect(hc, "https://collector.example/harvest", body)
		if err := resp.GetError(); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// Look-alikes.

// localResult carries the error of local work: no dependency is hit.
type localResult struct{ err error }

func (r localResult) Err() error { return r.err }

func parse(b []byte) localResult {
	if len(b) == 0 {
		return localResult{err: errors.New("empty")}
	}
	return localResult{}
}

func parseUntilGood(next func() []byte) {
	for i := 0; i < 3; i++ {
		if r := parse(next()); r.Err() == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// connectCapped is capped, but remote and unbudgeted: reported, where
// the capped local parse above is not.
func connectCapped(hc *http.Client) *reply {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		r, resp := connectOnce(hc)
		if r != nil {
			return r
		}
		if resp.IsDisconnect() {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

// drainResponses reads results until one fails: a consumer that stops
// on failure, not a retry.
func drainResponses(hc *http.Client, handle func([]byte)) {
	for {
		resp := collect(hc, "https://collector.example/events", nil)
		if resp.GetError() != nil {
			return
		}
		handle(resp.body)
	}
}

// sendAll sends each item once: a collection loop.
func sendAll(hc *http.Client, items [][]byte) []error {
	var errs []error
	for _, it := range items {
		if resp := collect(hc, "https://collector.example/item", it); resp.GetError() != nil {
			errs = append(errs, resp.GetError())
		}
	}
	return errs
}

type jobStatus struct {
	err   error
	ready bool
}

func (s *jobStatus) Err() error { return s.err }

func fetchStatus(hc *http.Client, url string) *jobStatus {
	resp, err := hc.Get(url)
	if err != nil {
		return &jobStatus{err: err}
	}
	defer resp.Body.Close()
	return &jobStatus{ready: resp.Header.Get("X-Ready") == "1"}
}

// waitReady polls a job through a carrier: a failed call gives up, a
// success that is not ready yet waits. Polling, not a retry.
func waitReady(hc *http.Client, url string) error {
	for {
		s := fetchStatus(hc, url)
		if s.Err() != nil {
			return s.Err()
		}
		if s.ready {
			return nil
		}
		time.Sleep(time.Second)
	}
}
