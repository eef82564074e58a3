package admission

import (
	"testing"
	"time"
)

var gT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func guardStatus(t *testing.T, tk *Ticket) (Status, Reason) {
	t.Helper()
	return tk.Status()
}

func guardWantStatus(t *testing.T, tk *Ticket, st Status, r Reason) {
	t.Helper()
	gs, gr := guardStatus(t, tk)
	if gs != st || gr != r {
		t.Fatalf("ticket %v: status %d/%v, want %d/%v", tk.Value, gs, gr, st, r)
	}
}

func TestAdmissionRunsQueuesLIFOFirstTriesFirst(t *testing.T) {
	a := New(Config{MaxConcurrent: 1, MaxQueue: 3, MaxQueueWait: time.Second, MinRetryRate: 100})
	now := gT0
	run, _ := a.Arrive(now, false, time.Time{}, "run")
	guardWantStatus(t, run, Running, 0)
	r1, _ := a.Arrive(now.Add(1*time.Millisecond), true, time.Time{}, "r1")
	f1, _ := a.Arrive(now.Add(2*time.Millisecond), false, time.Time{}, "f1")
	f2, _ := a.Arrive(now.Add(3*time.Millisecond), false, time.Time{}, "f2")
	for _, tk := range []*Ticket{r1, f1, f2} {
		guardWantStatus(t, tk, Queued, 0)
	}
	// Queue full: a first try pushes out the oldest retry.
	f3, ev := a.Arrive(now.Add(4*time.Millisecond), false, time.Time{}, "f3")
	if ev != r1 {
		t.Fatalf("evicted %v, want r1", ev)
	}
	guardWantStatus(t, r1, Shed, QueueFull)
	guardWantStatus(t, f3, Queued, 0)
	// Full of first tries: a retry does not push out a first try.
	r2, ev := a.Arrive(now.Add(5*time.Millisecond), true, time.Time{}, "r2")
	if ev != nil {
		t.Fatalf("a retry evicted %v", ev.Value)
	}
	guardWantStatus(t, r2, Shed, QueueFull)
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
		guardWantStatus(t, next, Running, 0)
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
	a := New(Config{MaxConcurrent: 1, MaxQueue: 10, MinRetryRate: 100})
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
	a := New(Config{MaxConcurrent: 1, MaxQueue: 10, MaxQueueWait: time.Second})
	// Already expired on arrival: shed, even with a free slot.
	late, _ := a.Arrive(gT0, false, gT0, "late")
	guardWantStatus(t, late, Shed, Expired)
	run, _ := a.Arrive(gT0, false, time.Time{}, "run")
	guardWantStatus(t, run, Running, 0)
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
	guardWantStatus(t, short, Shed, Expired)
	// Waited MaxQueueWait: dropped as a queue timeout when a slot frees.
	run, _ = a.Arrive(gT0.Add(2*time.Second), false, time.Time{}, "run2")
	stale, _ := a.Arrive(gT0.Add(2*time.Second), false, time.Time{}, "stale")
	next, dropped = a.Done(gT0.Add(4*time.Second), run)
	if next != nil || len(dropped) != 1 || dropped[0] != stale {
		t.Fatalf("stale ticket was not dropped: next %v dropped %v", next, dropped)
	}
	guardWantStatus(t, stale, Shed, QueueTimeout)
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
	guardWantStatus(t, q1, Shed, Canceled)
	if !a.Cancel(gT0.Add(6*time.Second), q2, false) {
		t.Fatal("Cancel refused a queued ticket")
	}
	guardWantStatus(t, q2, Shed, Expired)
	if a.Cancel(gT0.Add(6*time.Second), q2, false) {
		t.Fatal("Cancel twice")
	}
	s := a.Stats()
	if s.ShedExpired != 3 || s.ShedQueueTimeout != 1 || s.ShedCanceled != 1 || s.ShedQueueFull+s.ShedRetryBudget != 0 || s.QueueLen != 0 || s.Running != 1 {
		t.Fatalf("stats %v", s)
	}
}

func TestAdmissionRetryRatio(t *testing.T) {
	a := New(Config{MaxConcurrent: 1 << 20, RetryRatio: 0.2, MinRetryRate: -1, RetryWindow: 10 * time.Second})
	for i := 0; i < 100; i++ {
		a.Arrive(gT0.Add(time.Duration(i)*10*time.Millisecond), false, time.Time{}, nil)
	}
	admitted := 0
	for i := 0; i < 50; i++ {
		tk, _ := a.Arrive(gT0.Add(time.Second), true, time.Time{}, nil)
		if st, r := tk.Status(); st == Running {
			admitted++
		} else if r != RetryBudget {
			t.Fatalf("retry shed for %v", r)
		}
	}
	if admitted != 20 {
		t.Fatalf("admitted %d retries after 100 first tries, want 20 (20%%)", admitted)
	}
	// The window slides: 11 s later the old first tries are gone.
	tk, _ := a.Arrive(gT0.Add(12*time.Second), true, time.Time{}, nil)
	guardWantStatus(t, tk, Shed, RetryBudget)
	// The reserve admits MinRetryRate per second of window even without first tries.
	b := New(Config{MinRetryRate: 1, RetryWindow: 10 * time.Second, MaxConcurrent: 1 << 20})
	n := 0
	for i := 0; i < 20; i++ {
		tk, _ := b.Arrive(gT0, true, time.Time{}, nil)
		if st, _ := tk.Status(); st == Running {
			n++
		}
	}
	if n != 10 {
		t.Fatalf("reserve admitted %d, want 10 (1/s over 10 s)", n)
	}
	s := a.Stats()
	if s.AdmittedRetries != 20 || s.ShedRetryBudget != 31 || s.Admitted != 120 {
		t.Fatalf("stats %v", s)
	}
}

func TestAdmissionRetryAfterJitter(t *testing.T) {
	seen := map[time.Duration]bool{}
	i := 0
	a := New(Config{Rand: func() float64 { i++; return float64(i%10) / 10 }})
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
	b := New(Config{RetryAfter: 10 * time.Millisecond, Rand: func() float64 { return 2 }})
	if d := b.RetryAfter(); d != time.Second {
		t.Fatalf("RetryAfter %v, want the 1s floor", d)
	}
}

func TestConfigDefaults(t *testing.T) {
	c := New(Config{RetryRatio: -1, MinRetryRate: -1, MaxQueue: -1}).Config()
	if c.MaxConcurrent <= 0 || c.MaxQueue != 0 || c.RetryRatio != 0 || c.MinRetryRate != 0 ||
		c.MaxQueueWait != DefaultQueueWait {
		t.Fatalf("resolved config %+v", c)
	}
	a := New(Config{MaxConcurrent: 1, MaxQueue: -1})
	a.Arrive(gT0, false, time.Time{}, nil)
	if tk, _ := a.Arrive(gT0, false, time.Time{}, nil); tk.reason != QueueFull {
		t.Fatal("MaxQueue < 0 queued a request")
	}
	for r, want := range map[Reason]string{QueueFull: "queue_full", RetryBudget: "retry_budget", Expired: "expired", QueueTimeout: "queue_timeout", Canceled: "canceled", 42: "Reason(42)"} {
		if r.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(r), r.String(), want)
		}
	}
}

// The guard's Retry-After covers 1 s to 3 s with a mean of 2 s, as its doc says.
func TestAdmissionRetryAfterCoversOneToThree(t *testing.T) {
	n := 0
	const draws = 300
	a := New(Config{Rand: func() float64 { n++; return float64(n%draws) / draws }})
	counts := map[time.Duration]int{}
	var sum time.Duration
	for range draws {
		d := a.RetryAfter()
		counts[d]++
		sum += d
	}
	for _, want := range []time.Duration{time.Second, 2 * time.Second, 3 * time.Second} {
		if c := counts[want]; c < draws/4 {
			t.Errorf("Retry-After %v drawn %d times of %d, want about a third", want, c, draws)
		}
	}
	if len(counts) != 3 {
		t.Errorf("Retry-After values %v, want only 1s, 2s and 3s", counts)
	}
	if mean := sum / draws; mean < 1900*time.Millisecond || mean > 2100*time.Millisecond {
		t.Errorf("mean Retry-After %v, want 2s", mean)
	}
}
