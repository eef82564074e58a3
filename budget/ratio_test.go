package budget

import (
	"math"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRatioBudgetZeroValueReserve(t *testing.T) {
	var r RatioBudget
	now := time.Unix(1_700_000_000, 0)
	// No requests yet: the reserve of 10/s over 10s allows 100 retries.
	for i := 0; i < 100; i++ {
		if !r.AllowAt(now) {
			t.Fatalf("retry %d denied within the reserve", i)
		}
	}
	if r.AllowAt(now) {
		t.Fatal("retry 101 allowed beyond the reserve")
	}
	// The 100 retries' outcomes earn nothing; 50 first tries earn 20% of
	// 50 = 10 more.
	for i := 0; i < 150; i++ {
		r.RecordAt(now, nil)
	}
	for i := 0; i < 10; i++ {
		if !r.AllowAt(now) {
			t.Fatalf("earned retry %d denied", i)
		}
	}
	if r.AllowAt(now) {
		t.Fatal("retry allowed beyond 20% + reserve")
	}
	// Once the window has passed, the reserve is back.
	if !r.AllowAt(now.Add(10 * time.Second)) {
		t.Fatal("reserve not restored after the window")
	}
	want := Stats{Requests: 150, RetriesAllowed: 111, RetriesDenied: 2}
	if got := r.Stats(); got != want {
		t.Fatalf("Stats() = %+v, want %+v", got, want)
	}
}

func TestRatioBudgetPercentOnly(t *testing.T) {
	r, err := NewRatioBudget(0.2, 0, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_700_000_000, 0)
	if r.AllowAt(now) {
		t.Fatal("retry allowed with no requests and no reserve")
	}
	for i := 0; i < 100; i++ {
		r.RecordAt(now, errBoom)
	}
	n := 0
	for r.AllowAt(now) {
		n++
		if n > 1000 {
			t.Fatal("unbounded")
		}
	}
	if n != 20 {
		t.Fatalf("%d retries allowed for 100 requests, want 20", n)
	}
	// Half a window later the requests still count; a full window later they do not.
	if r.AllowAt(now.Add(5 * time.Second)) {
		t.Fatal("retries withdrawn earlier were forgotten")
	}
	if r.AllowAt(now.Add(10 * time.Second)) {
		t.Fatal("requests older than the window still earn retries")
	}
	if s := r.Stats(); s.Failures != 100 || s.Requests != 100 {
		t.Fatalf("Stats() = %+v", s)
	}
}

func TestRatioBudgetSlidingWindow(t *testing.T) {
	r, _ := NewRatioBudget(0.5, 0, time.Second)
	t0 := time.Unix(1_700_000_000, 0)
	for i := 0; i < 10; i++ {
		r.RecordAt(t0, nil) // earns 5
	}
	for i := 0; i < 10; i++ {
		r.RecordAt(t0.Add(500*time.Millisecond), nil) // earns 5 more
	}
	if got := countAllowed(r, t0.Add(900*time.Millisecond)); got != 10 {
		t.Fatalf("allowed %d at 0.9s, want 10", got)
	}
	// At 1.0s the first 10 requests have left the 1s window; the 10 retries are still in it.
	if got := countAllowed(r, t0.Add(time.Second)); got != 0 {
		t.Fatalf("allowed %d at 1.0s, want 0", got)
	}
	// At 1.5s the second batch and the retries have left too.
	if got := countAllowed(r, t0.Add(1500*time.Millisecond)); got != 0 {
		t.Fatalf("allowed %d at 1.5s, want 0", got)
	}
}

func countAllowed(r *RatioBudget, now time.Time) int {
	n := 0
	for n < 1000 && r.AllowAt(now) {
		n++
	}
	return n
}

func TestNewRatioBudgetRejectsInvalid(t *testing.T) {
	tests := []struct {
		percent, min float64
		window       time.Duration
		param        string
	}{
		{-0.1, 1, time.Second, "percent"},
		{math.NaN(), 1, time.Second, "percent"},
		{math.Inf(1), 1, time.Second, "percent"},
		{0.2, -1, time.Second, "minPerSecond"},
		{0.2, math.NaN(), time.Second, "minPerSecond"},
		{0.2, math.Inf(-1), time.Second, "minPerSecond"},
		{0, 0, time.Second, "percent"},
		{0.2, 10, 0, "window"},
		{0.2, 10, -time.Second, "window"},
	}
	for _, tt := range tests {
		r, err := NewRatioBudget(tt.percent, tt.min, tt.window)
		if err == nil || r != nil {
			t.Errorf("NewRatioBudget(%v, %v, %v) = %v, %v; want an error", tt.percent, tt.min, tt.window, r, err)
			continue
		}
		if !strings.Contains(err.Error(), tt.param) {
			t.Errorf("error %q does not name %s", err, tt.param)
		}
	}
	if _, err := NewRatioBudget(0, 5, time.Second); err != nil {
		t.Errorf("reserve-only budget rejected: %v", err)
	}
}

func TestRatioBudgetRealClock(t *testing.T) {
	var r RatioBudget
	r.RecordSuccess()
	r.RecordFailure()
	r.Record(nil)
	if !r.Allow() {
		t.Fatal("retry denied")
	}
	if s := r.Stats(); s.Requests != 3 || s.Failures != 1 || s.RetriesAllowed != 1 {
		t.Fatalf("Stats() = %+v", s)
	}
}

func TestRatioBudgetConcurrent(t *testing.T) {
	r, _ := NewRatioBudget(0.1, 0, time.Minute)
	now := time.Unix(1_700_000_000, 0)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				r.RecordAt(now, nil)
				r.AllowAt(now)
			}
		}()
	}
	wg.Wait()
	s := r.Stats()
	if s.Requests != 8000 || s.RetriesAllowed > 800 || s.RetriesAllowed+s.RetriesDenied != 8000 {
		t.Fatalf("Stats() = %+v: retries above 10%% of requests or lost counts", s)
	}
}
