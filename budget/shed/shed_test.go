package shed

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/internal/admission"
)

// --- HTTP ---

func guardGet(t *testing.T, c *http.Client, url string, hdr map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func guardWantShed(t *testing.T, resp *http.Response) {
	t.Helper()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", resp.StatusCode)
	}
	if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || n < 1 {
		t.Fatalf("Retry-After %q, want whole seconds >= 1", resp.Header.Get("Retry-After"))
	}
}

func TestGuardExpiredNeverReachHandler(t *testing.T) {
	var ran atomic.Int32
	release := make(chan struct{})
	g := New(Config{MaxConcurrent: 1, MaxQueue: 4, MaxQueueWait: 5 * time.Second})
	srv := httptest.NewServer(g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ran.Add(1)
		if r.URL.Path == "/block" {
			<-release
		}
	})))
	defer srv.Close()
	defer close(release)
	c := srv.Client()

	for _, v := range []string{"0", "-5"} {
		guardWantShed(t, guardGet(t, c, srv.URL, map[string]string{budget.TimeoutHeader: v}))
	}
	if ran.Load() != 0 {
		t.Fatalf("handler ran %d times for expired requests", ran.Load())
	}
	// Malformed or absurd hints are a first try without (or with a capped)
	// deadline: they run.
	for _, h := range []map[string]string{
		{budget.TimeoutHeader: "soon", budget.AttemptHeader: "x"},
		{budget.TimeoutHeader: "99999999999999999999999", budget.AttemptHeader: "-3"},
		{budget.TimeoutHeader: "9223372036854775807"},
	} {
		if resp := guardGet(t, c, srv.URL, h); resp.StatusCode != 200 {
			t.Fatalf("headers %v: status %d", h, resp.StatusCode)
		}
	}
	if s := g.Stats(); s.Retries != 0 || s.FirstTries != 5 {
		t.Fatalf("malformed attempt headers counted as retries: %v", s)
	}
	// Occupy the only slot, then queue a request whose deadline passes
	// while it waits: it is answered at its deadline without running.
	go c.Get(srv.URL + "/block")
	guardWaitFor(t, func() bool { return g.Stats().Running == 1 })
	before := ran.Load()
	start := time.Now()
	guardWantShed(t, guardGet(t, c, srv.URL, map[string]string{budget.TimeoutHeader: "50"}))
	if el := time.Since(start); el > 4*time.Second {
		t.Fatalf("expired request answered after %v; want about its 50ms deadline", el)
	}
	if ran.Load() != before {
		t.Fatal("a request whose deadline passed in the queue reached the handler")
	}
	s := g.Stats()
	if s.ShedExpired != 3 {
		t.Fatalf("stats %v, want 3 shed as expired", s)
	}
}

func TestGuardQueueWaitBoundedAndCanceled(t *testing.T) {
	release := make(chan struct{})
	var shedReasons sync.Map
	g := New(Config{MaxConcurrent: 1, MaxQueue: 4, MaxQueueWait: 30 * time.Millisecond, ShedStatus: http.StatusTooManyRequests,
		OnShed: func(r *http.Request, why Reason) { shedReasons.Store(why, true) }})
	srv := httptest.NewServer(g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release })))
	var srv2 *httptest.Server
	defer func() {
		close(release)
		srv.Close()
		if srv2 != nil {
			srv2.Close()
		}
	}()
	c := srv.Client()
	go c.Get(srv.URL)
	guardWaitFor(t, func() bool { return g.Stats().Running == 1 })
	resp := guardGet(t, c, srv.URL, nil)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("queue timeout: status %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	// A caller that goes away while queued frees its place.
	g2 := New(Config{MaxConcurrent: 1, MaxQueue: 4, MaxQueueWait: time.Minute})
	srv2 = httptest.NewServer(g2.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release })))
	go srv2.Client().Get(srv2.URL)
	guardWaitFor(t, func() bool { return g2.Stats().Running == 1 })
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", srv2.URL, nil)
	done := make(chan error, 1)
	go func() { _, err := srv2.Client().Do(req); done <- err }()
	guardWaitFor(t, func() bool { return g2.Stats().QueueLen == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("client error %v", err)
	}
	guardWaitFor(t, func() bool { return g2.Stats().ShedCanceled == 1 && g2.Stats().QueueLen == 0 })
	if _, ok := shedReasons.Load(QueueTimeout); !ok {
		t.Fatal("OnShed not called with QueueTimeout")
	}
}

func guardWaitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 10s")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGuardConcurrency hammers a guard from many goroutines (run with
// -race): the handler never sees more than MaxConcurrent requests at once,
// every request is answered, and the counters add up.
func TestGuardConcurrency(t *testing.T) {
	const limit = 3
	var cur, peak atomic.Int32
	g := New(Config{MaxConcurrent: limit, MaxQueue: 5, MaxQueueWait: 20 * time.Millisecond, MinRetryRate: 50})
	h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := cur.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		cur.Add(-1)
	}))
	var wg sync.WaitGroup
	var ok, shed atomic.Int32
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 25; j++ {
				req := httptest.NewRequest("GET", "/", nil)
				if j%3 == 1 {
					req.Header.Set(budget.AttemptHeader, "1")
				}
				if j%5 == 2 {
					req.Header.Set(budget.TimeoutHeader, strconv.Itoa(j%4))
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				switch rec.Code {
				case 200:
					ok.Add(1)
				case 503:
					if rec.Header().Get("Retry-After") == "" {
						t.Error("shed without Retry-After")
					}
					shed.Add(1)
				default:
					t.Errorf("status %d", rec.Code)
				}
			}
		}()
	}
	wg.Wait()
	s := g.Stats()
	if peak.Load() > limit {
		t.Errorf("handler ran %d at once, limit %d", peak.Load(), limit)
	}
	if uint64(ok.Load()) != s.Admitted || uint64(shed.Load()) != s.Shed() || s.FirstTries+s.Retries != 400 || s.Running != 0 || s.QueueLen != 0 {
		t.Errorf("ok %d shed %d, stats %v", ok.Load(), shed.Load(), s)
	}
}

// guardOverload drives srv with naive retrying clients: first tries at rate for
// d, each attempt abandoned after timeout, retried at once (marked with
// budget.AttemptHeader) up to 3 attempts, Retry-After ignored.
type guardOverloadResult struct {
	calls, ok, firstOK, shed, shedNoRetryAfter int
}

func guardOverload(t *testing.T, url string, rate float64, d, timeout time.Duration) guardOverloadResult {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	defer client.CloseIdleConnections()
	var mu sync.Mutex
	var res guardOverloadResult
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer tick.Stop()
	end := time.After(d)
loop:
	for {
		select {
		case <-end:
			break loop
		case <-tick.C:
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r guardOverloadResult
			r.calls = 1
			for attempt := 0; attempt < 3; attempt++ {
				ctx, cancel := context.WithTimeout(context.Background(), timeout)
				req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
				if attempt > 0 {
					req.Header.Set(budget.AttemptHeader, strconv.Itoa(attempt))
				}
				req.Header.Set(budget.TimeoutHeader, strconv.Itoa(int(timeout/time.Millisecond)))
				resp, err := client.Do(req)
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				cancel()
				if err == nil && resp.StatusCode == 200 {
					r.ok = 1
					if attempt == 0 {
						r.firstOK = 1
					}
					break
				}
				if err == nil {
					r.shed++
					if resp.Header.Get("Retry-After") == "" {
						r.shedNoRetryAfter++
					}
				}
			}
			mu.Lock()
			res.calls += r.calls
			res.ok += r.ok
			res.firstOK += r.firstOK
			res.shed += r.shed
			res.shedNoRetryAfter += r.shedNoRetryAfter
			mu.Unlock()
		}()
	}
	wg.Wait()
	return res
}

// TestGuardOverload: a service that can do `slots` requests of `work` at a
// time (100 req/s) gets first tries at 130 req/s from naive retrying clients
// with a 200ms timeout. Its handler does not watch its context, so work for
// callers that gave up is still done. Unguarded, the queue outgrows the
// timeout, every caller retries and goodput collapses; behind a Guard the
// service keeps serving fresh first tries and sheds retries first.
func TestGuardOverload(t *testing.T) {
	if testing.Short() {
		t.Skip("real-time overload test")
	}
	const (
		slots   = 2
		work    = 20 * time.Millisecond
		rate    = 130.0
		d       = 2500 * time.Millisecond
		timeout = 200 * time.Millisecond
	)
	scenario := func(guarded bool) (guardOverloadResult, int64, Stats) {
		stop := make(chan struct{})
		cpu := make(chan struct{}, slots)
		var wasted atomic.Int64
		var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select { // a worker pool that ignores the request's context
			case cpu <- struct{}{}:
			case <-stop:
				return
			}
			time.Sleep(work)
			<-cpu
			if r.Context().Err() != nil {
				wasted.Add(1)
			}
		})
		var g *Guard
		if guarded {
			g = New(Config{MaxConcurrent: slots, MaxQueue: 2 * slots, MaxQueueWait: timeout / 2, MinRetryRate: 1})
			h = g.Wrap(h)
		}
		srv := httptest.NewServer(h)
		res := guardOverload(t, srv.URL, rate, d, timeout)
		close(stop)
		srv.CloseClientConnections()
		srv.Close()
		var s Stats
		if g != nil {
			s = g.Stats()
		}
		return res, wasted.Load(), s
	}
	off, offWasted, _ := scenario(false)
	on, onWasted, s := scenario(true)
	t.Logf("guard off: %d calls, %d ok (%d first try), %d wasted handler runs", off.calls, off.ok, off.firstOK, offWasted)
	t.Logf("guard on:  %d calls, %d ok (%d first try), %d wasted handler runs, %d shed; %v", on.calls, on.ok, on.firstOK, onWasted, on.shed, s)

	if on.ok < 2*off.ok {
		t.Errorf("goodput with the guard %d, without %d: want at least twice", on.ok, off.ok)
	}
	if on.firstOK < on.calls/3 {
		t.Errorf("guard: only %d of %d calls succeeded on the first try", on.firstOK, on.calls)
	}
	if on.shedNoRetryAfter != 0 {
		t.Errorf("%d shed responses without Retry-After", on.shedNoRetryAfter)
	}
	// Retries are shed first: a larger share of retries than of first tries.
	shedFirst := s.Shed() - s.ShedRetries
	if s.Retries == 0 || float64(s.ShedRetries)/float64(s.Retries) <= float64(shedFirst)/float64(s.FirstTries) {
		t.Errorf("retries shed %d/%d, first tries shed %d/%d: want retries shed first", s.ShedRetries, s.Retries, shedFirst, s.FirstTries)
	}
	if s.RetryRatio() > 0.35 {
		t.Errorf("admitted retry ratio %.2f, want held near the 0.2 cap", s.RetryRatio())
	}
}

// The library's Transport and the Guard agree on the headers: a re-sent
// request is counted as a retry, its deadline is propagated.
func TestGuardWithTransport(t *testing.T) {
	var calls atomic.Int32
	var sawTimeout atomic.Bool
	g := New(Config{MaxConcurrent: 4})
	srv := httptest.NewServer(g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(budget.TimeoutHeader) != "" {
			sawTimeout.Store(true)
		}
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusBadGateway) // fail the first try
		}
	})))
	defer srv.Close()
	c := &http.Client{Transport: &budget.Transport{Base: srv.Client().Transport, Backoff: budget.Backoff{Rand: func() float64 { return 0 }}}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	s := g.Stats()
	if resp.StatusCode != 200 || s.FirstTries != 1 || s.Retries != 1 || s.AdmittedRetries != 1 || !sawTimeout.Load() {
		t.Fatalf("status %d, stats %v, deadline header seen %v", resp.StatusCode, s, sawTimeout.Load())
	}
}

func TestReasonString(t *testing.T) {
	want := map[Reason]string{QueueFull: "queue_full", RetryBudget: "retry_budget", Expired: "expired", QueueTimeout: "queue_timeout", Canceled: "canceled", 42: "Reason(42)"}
	for r, w := range want {
		if r.String() != w {
			t.Errorf("%d.String() = %q, want %q", int(r), r.String(), w)
		}
	}
}

// The defaults documented here are the ones the admission core applies to
// a zero field.
func TestDefaultsAreTheCores(t *testing.T) {
	c := admission.New(admission.Config{}).Config()
	if c.MaxQueueWait != DefaultQueueWait || c.RetryRatio != DefaultRetryRatio || c.MinRetryRate != DefaultMinRetryRate ||
		c.RetryWindow != DefaultRetryWindow || c.RetryAfter != DefaultRetryAfter {
		t.Errorf("the admission core resolves a zero Config to %+v, not to this package's defaults", c)
	}
}
