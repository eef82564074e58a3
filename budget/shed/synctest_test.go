//go:build go1.25

//go:debug asynctimerchan=0

package shed

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// In a synctest bubble the guard's waits run on fake time, so the bounds on
// queueing are checked exactly. (The module's go 1.22 line keeps the pre-1.23
// timer channels, which testing/synctest does not support; the test
// binary opts into the new ones.)

func TestSyncGuardWaitsAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var mu sync.Mutex
		var ran []string
		g := New(Config{MaxConcurrent: 1, MaxQueue: 8, MaxQueueWait: 300 * time.Millisecond, MinRetryRate: 100})
		h := g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			ran = append(ran, r.URL.Path)
			mu.Unlock()
			if r.URL.Path == "/hold" {
				<-release
			}
		}))
		type answer struct {
			code       int
			retryAfter string
			after      time.Duration
		}
		serve := func(path string, hdr map[string]string) <-chan answer {
			ch := make(chan answer, 1)
			req := httptest.NewRequest("GET", path, nil)
			for k, v := range hdr {
				req.Header.Set(k, v)
			}
			start := time.Now()
			go func() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				ch <- answer{rec.Code, rec.Header().Get("Retry-After"), time.Since(start)}
			}()
			synctest.Wait()
			return ch
		}
		hold := serve("/hold", nil)
		timedOut := serve("/queued", nil)
		expired := serve("/expired", map[string]string{budget.TimeoutHeader: "100"})
		for _, c := range []struct {
			name  string
			ch    <-chan answer
			after time.Duration
		}{{"deadline", expired, 100 * time.Millisecond}, {"queue wait", timedOut, 300 * time.Millisecond}} {
			a := <-c.ch
			if a.code != http.StatusServiceUnavailable || a.retryAfter == "" || a.after != c.after {
				t.Errorf("%s: %d Retry-After %q after %v; want 503 with Retry-After after exactly %v", c.name, a.code, a.retryAfter, a.after, c.after)
			}
		}
		// Newest first try first, retries last.
		older := serve("/older", nil)
		retry := serve("/retry", map[string]string{budget.AttemptHeader: "1"})
		newer := serve("/newer", nil)
		close(release)
		for _, ch := range []<-chan answer{hold, older, retry, newer} {
			if a := <-ch; a.code != 200 {
				t.Errorf("status %d", a.code)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		want := []string{"/hold", "/newer", "/older", "/retry"}
		if len(ran) != len(want) {
			t.Fatalf("handler ran %v, want %v", ran, want)
		}
		for i := range want {
			if ran[i] != want[i] {
				t.Fatalf("handler ran %v, want %v", ran, want)
			}
		}
		s := g.Stats()
		if s.ShedExpired != 1 || s.ShedQueueTimeout != 1 || s.Admitted != 4 || s.Running != 0 {
			t.Errorf("stats %v", s)
		}
	})
}
