package budget

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
)

var gT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func guardStatus(t *testing.T, tk *Ticket) (TicketStatus, ShedReason) {
	t.Helper()
	return tk.Status()
}

func guardWantStatus(t *testing.T, tk *Ticket, st TicketStatus, r ShedReason) {
	t.Helper()
	gs, gr := guardStatus(t, tk)
	if gs != st || gr != r {
		t.Fatalf("ticket %v: status %d/%v, want %d/%v", tk.Value, gs, gr, st, r)
	}
}

func TestAdmissionRunsQueuesLIFOFirstTriesFirst(t *testing.T) {
	a := NewAdmission(GuardConfig{MaxConcurrent: 1, MaxQueue: 3, MaxQueueWait: time.Second, MinRetryRate: 100})
	now := gT0
	run, _ := a.Arrive(now, false, time.Time{}, "run")
	guardWantStatus(t, run, TicketRunning, 0)
	r1, _ := a.Arrive(now.Add(1*time.Millisecond), true, time.Time{}, "r1")
	f1, _ := a.Arrive(now.Add(2*time.Millisecond), false, time.Time{}, "f1")
	f2, _ := a.Arrive(now.Add(3*time.Millisecond), false, time.Time{}, "f2")
	for _, tk := range []*Ticket{r1, f1, f2} {
		guardWantStatus(t, tk, TicketQueued, 0)
	}
	// Queue full: a first try pushes out the oldest retry.
	f3, ev := a.Arrive(now.Add(4*time.Millisecond), false, time.Time{}, "f3")
	if ev != r1 {
		t.Fatalf("evicted %v, want r1", ev)
	}
	guardWantStatus(t, r1, TicketShed, ShedQueueFull)
	guardWantStatus(t, f3, TicketQueued, 0)
	// Full of first tries: a retry does not push out a first try.
	r2, ev := a.Arrive(now.Add(5*time.Millisecond), true, time.Time{}, "r2")
	if ev != nil {
		t.Fatalf("a retry evicted %v", ev.Value)
	}
	guardWantStatus(t, r2, TicketShed, ShedQueueFull)
	// A first try pushes out the oldest first try.
	f4, ev := a.Arrive(now.Add(6*time.Millisecond), false, time.Time{}, "f4")
	if ev != f1 {
		t.Fatalf("evicted %v, want f1", ev)
	}
	// Slots go newest first: f4, f3, f2.
	cur := run
	for _, want := range []*Ticket{f4, f3, f2} {
		next, dropped := a.Done(now.Add(10*time.Millisecond), cur)
		if next != want || len(dropped) != 0 {
			t.Fatalf("Done gave %v (dropped %d), want %v", next.Value, len(dropped), want.Value)
		}
		guardWantStatus(t, next, TicketRunning, 0)
		cur = next
	}
	if next, _ := a.Done(now.Add(20*time.Millisecond), cur); next != nil {
		t.Fatalf("empty queue gave %v", next.Value)
	}
	// A second Done is harmless.
	if next, dropped := a.Done(now, cur); next != nil || dropped != nil {
		t.Fatal("Done twice did something")
	}
	s := a.Stats()
	if s.Running != 0 || s.QueueLen != 0 || s.Admitted != 4 || s.ShedQueueFull != 3 || s.Queued != 5 || s.ShedRetries != 2 {
		t.Fatalf("stats %v", s)
	}
}

func TestAdmissionRetryPriority(t *testing.T) {
	a := NewAdmission(GuardConfig{MaxConcurrent: 1, MaxQueue: 10, MinRetryRate: 100})
	run, _ := a.Arrive(gT0, false, time.Time{}, 0)
	r, _ := a.Arrive(gT0, true, time.Time{}, "retry")
	f, _ := a.Arrive(gT0.Add(time.Millisecond), false, time.Time{}, "first")
	r2, _ := a.Arrive(gT0.Add(2*time.Millisecond), true, time.Time{}, "retry2")
	next, _ := a.Done(gT0.Add(3*time.Millisecond), run)
	if next != f {
		t.Fatalf("got %v, want the first try before the newer retries", next.Value)
	}
	next, _ = a.Done(gT0.Add(4*time.Millisecond), next)
	if next != r2 {
		t.Fatalf("got %v, want the newest retry", next.Value)
	}
	next, _ = a.Done(gT0.Add(5*time.Millisecond), next)
	if next != r {
		t.Fatalf("got %v, want the last retry", next.Value)
	}
}

func TestAdmissionDeadlines(t *testing.T) {
	a := NewAdmission(GuardConfig{MaxConcurrent: 1, MaxQueue: 10, MaxQueueWait: time.Second})
	// Already expired on arrival: shed, even with a free slot.
	late, _ := a.Arrive(gT0, false, gT0, "late")
	guardWantStatus(t, late, TicketShed, ShedExpired)
	run, _ := a.Arrive(gT0, false, time.Time{}, "run")
	guardWantStatus(t, run, TicketRunning, 0)
	short, _ := a.Arrive(gT0, false, gT0.Add(50*time.Millisecond), "short")
	old, _ := a.Arrive(gT0, false, time.Time{}, "old")
	// The newest goes first: "old"; "short" has waited past its deadline.
	if got := a.WaitLimit(short); !got.Equal(gT0.Add(50 * time.Millisecond)) {
		t.Fatalf("WaitLimit = %v, want the deadline", got)
	}
	if got := a.WaitLimit(old); !got.Equal(gT0.Add(time.Second)) {
		t.Fatalf("WaitLimit = %v, want MaxQueueWait", got)
	}
	next, dropped := a.Done(gT0.Add(100*time.Millisecond), run)
	if next != old || len(dropped) != 0 {
		t.Fatalf("next %v dropped %d", next, len(dropped))
	}
	next, dropped = a.Done(gT0.Add(200*time.Millisecond), next)
	if next != nil || len(dropped) != 1 || dropped[0] != short {
		t.Fatalf("expired ticket was not dropped: next %v dropped %v", next, dropped)
	}
	guardWantStatus(t, short, TicketShed, ShedExpired)
	// Waited MaxQueueWait: dropped as a queue timeout when a slot frees.
	run, _ = a.Arrive(gT0.Add(2*time.Second), false, time.Time{}, "run2")
	stale, _ := a.Arrive(gT0.Add(2*time.Second), false, time.Time{}, "stale")
	next, dropped = a.Done(gT0.Add(4*time.Second), run)
	if next != nil || len(dropped) != 1 || dropped[0] != stale {
		t.Fatalf("stale ticket was not dropped: next %v dropped %v", next, dropped)
	}
	guardWantStatus(t, stale, TicketShed, ShedQueueTimeout)
	// Cancel: only a queued ticket, with the right reason.
	run, _ = a.Arrive(gT0.Add(5*time.Second), false, time.Time{}, "run3")
	q1, _ := a.Arrive(gT0.Add(5*time.Second), false, time.Time{}, "q1")
	q2, _ := a.Arrive(gT0.Add(5*time.Second), false, gT0.Add(5*time.Second+time.Millisecond), "q2")
	if a.Cancel(gT0.Add(5*time.Second), run, false) {
		t.Fatal("Cancel took a running ticket")
	}
	if !a.Cancel(gT0.Add(5*time.Second), q1, true) {
		t.Fatal("Cancel refused a queued ticket")
	}
	guardWantStatus(t, q1, TicketShed, ShedCanceled)
	if !a.Cancel(gT0.Add(6*time.Second), q2, false) {
		t.Fatal("Cancel refused a queued ticket")
	}
	guardWantStatus(t, q2, TicketShed, ShedExpired)
	if a.Cancel(gT0.Add(6*time.Second), q2, false) {
		t.Fatal("Cancel twice")
	}
	s := a.Stats()
	if s.ShedExpired != 3 || s.ShedQueueTimeout != 1 || s.ShedCanceled != 1 || s.Shed() != 5 || s.QueueLen != 0 || s.Running != 1 {
		t.Fatalf("stats %v", s)
	}
}

func TestAdmissionRetryRatio(t *testing.T) {
	a := NewAdmission(GuardConfig{MaxConcurrent: 1 << 20, RetryRatio: 0.2, MinRetryRate: -1, RetryWindow: 10 * time.Second})
	for i := 0; i < 100; i++ {
		a.Arrive(gT0.Add(time.Duration(i)*10*time.Millisecond), false, time.Time{}, nil)
	}
	admitted := 0
	for i := 0; i < 50; i++ {
		tk, _ := a.Arrive(gT0.Add(time.Second), true, time.Time{}, nil)
		if st, r := tk.Status(); st == TicketRunning {
			admitted++
		} else if r != ShedRetryBudget {
			t.Fatalf("retry shed for %v", r)
		}
	}
	if admitted != 20 {
		t.Fatalf("admitted %d retries after 100 first tries, want 20 (20%%)", admitted)
	}
	// The window slides: 11 s later the old first tries are gone.
	tk, _ := a.Arrive(gT0.Add(12*time.Second), true, time.Time{}, nil)
	guardWantStatus(t, tk, TicketShed, ShedRetryBudget)
	// The reserve admits MinRetryRate per second of window even without first tries.
	b := NewAdmission(GuardConfig{MinRetryRate: 1, RetryWindow: 10 * time.Second, MaxConcurrent: 1 << 20})
	n := 0
	for i := 0; i < 20; i++ {
		tk, _ := b.Arrive(gT0, true, time.Time{}, nil)
		if st, _ := tk.Status(); st == TicketRunning {
			n++
		}
	}
	if n != 10 {
		t.Fatalf("reserve admitted %d, want 10 (1/s over 10 s)", n)
	}
	s := a.Stats()
	if s.AdmittedRetries != 20 || s.ShedRetryBudget != 31 || s.RetryRatio() != 20.0/120 {
		t.Fatalf("stats %v", s)
	}
}

func TestAdmissionRetryAfterJitter(t *testing.T) {
	seen := map[time.Duration]bool{}
	i := 0
	a := NewAdmission(GuardConfig{Rand: func() float64 { i++; return float64(i%10) / 10 }})
	for range 20 {
		d := a.RetryAfter()
		if d < time.Second || d > 3*time.Second || d%time.Second != 0 {
			t.Fatalf("RetryAfter %v, want whole seconds in [1s, 3s]", d)
		}
		seen[d] = true
	}
	if len(seen) < 2 {
		t.Fatalf("RetryAfter not jittered: %v", seen)
	}
	b := NewAdmission(GuardConfig{RetryAfter: 10 * time.Millisecond, Rand: func() float64 { return 2 }})
	if d := b.RetryAfter(); d != time.Second {
		t.Fatalf("RetryAfter %v, want the 1s floor", d)
	}
}

func TestGuardConfigDefaults(t *testing.T) {
	c := NewAdmission(GuardConfig{RetryRatio: -1, MinRetryRate: -1, MaxQueue: -1}).Config()
	if c.MaxConcurrent <= 0 || c.MaxQueue != 0 || c.RetryRatio != 0 || c.MinRetryRate != 0 ||
		c.MaxQueueWait != DefaultGuardQueueWait || c.ShedStatus != http.StatusServiceUnavailable {
		t.Fatalf("resolved config %+v", c)
	}
	a := NewAdmission(GuardConfig{MaxConcurrent: 1, MaxQueue: -1})
	a.Arrive(gT0, false, time.Time{}, nil)
	if tk, _ := a.Arrive(gT0, false, time.Time{}, nil); tk.reason != ShedQueueFull {
		t.Fatal("MaxQueue < 0 queued a request")
	}
	for r, want := range map[ShedReason]string{ShedQueueFull: "queue_full", ShedRetryBudget: "retry_budget", ShedExpired: "expired", ShedQueueTimeout: "queue_timeout", ShedCanceled: "canceled", 42: "ShedReason(42)"} {
		if r.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(r), r.String(), want)
		}
	}
}

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
	g := NewGuard(GuardConfig{MaxConcurrent: 1, MaxQueue: 4, MaxQueueWait: 5 * time.Second})
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
		guardWantShed(t, guardGet(t, c, srv.URL, map[string]string{TimeoutHeader: v}))
	}
	if ran.Load() != 0 {
		t.Fatalf("handler ran %d times for expired requests", ran.Load())
	}
	// Malformed or absurd hints are a first try without (or with a capped)
	// deadline: they run.
	for _, h := range []map[string]string{
		{TimeoutHeader: "soon", AttemptHeader: "x"},
		{TimeoutHeader: "99999999999999999999999", AttemptHeader: "-3"},
		{TimeoutHeader: "9223372036854775807"},
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
	guardWantShed(t, guardGet(t, c, srv.URL, map[string]string{TimeoutHeader: "50"}))
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
	g := NewGuard(GuardConfig{MaxConcurrent: 1, MaxQueue: 4, MaxQueueWait: 30 * time.Millisecond, ShedStatus: http.StatusTooManyRequests,
		OnShed: func(r *http.Request, why ShedReason) { shedReasons.Store(why, true) }})
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
	g2 := NewGuard(GuardConfig{MaxConcurrent: 1, MaxQueue: 4, MaxQueueWait: time.Minute})
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
	if _, ok := shedReasons.Load(ShedQueueTimeout); !ok {
		t.Fatal("OnShed not called with ShedQueueTimeout")
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
	g := NewGuard(GuardConfig{MaxConcurrent: limit, MaxQueue: 5, MaxQueueWait: 20 * time.Millisecond, MinRetryRate: 50})
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
					req.Header.Set(AttemptHeader, "1")
				}
				if j%5 == 2 {
					req.Header.Set(TimeoutHeader, strconv.Itoa(j%4))
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
// AttemptHeader) up to 3 attempts, Retry-After ignored.
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
					req.Header.Set(AttemptHeader, strconv.Itoa(attempt))
				}
				req.Header.Set(TimeoutHeader, strconv.Itoa(int(timeout/time.Millisecond)))
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
	scenario := func(guarded bool) (guardOverloadResult, int64, GuardStats) {
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
			g = NewGuard(GuardConfig{MaxConcurrent: slots, MaxQueue: 2 * slots, MaxQueueWait: timeout / 2, MinRetryRate: 1})
			h = g.Wrap(h)
		}
		srv := httptest.NewServer(h)
		res := guardOverload(t, srv.URL, rate, d, timeout)
		close(stop)
		srv.CloseClientConnections()
		srv.Close()
		var s GuardStats
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
	g := NewGuard(GuardConfig{MaxConcurrent: 4})
	srv := httptest.NewServer(g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(TimeoutHeader) != "" {
			sawTimeout.Store(true)
		}
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusBadGateway) // fail the first try
		}
	})))
	defer srv.Close()
	c := &http.Client{Transport: &Transport{Base: srv.Client().Transport, Backoff: Backoff{Rand: func() float64 { return 0 }}}}
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
