package budget

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for Breaker tests.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_700_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// clocked reads a Breaker through a fake clock: each method is the
// breaker core's at clk.Now().
type clocked struct {
	*Breaker
	clk *fakeClock
}

func (c clocked) Allow() bool {
	_, ok := c.core().AdmitAt(c.clk.Now())
	return ok
}
func (c clocked) Record(err error)           { c.core().RecordAt(c.clk.Now(), err) }
func (c clocked) Open()                      { c.core().OpenAt(c.clk.Now()) }
func (c clocked) Counts() (req, fail uint64) { return c.core().CountsAt(c.clk.Now()) }
func (c clocked) State() BreakerState        { return c.Stats().State }
func (c clocked) Admit() (clockedPermit, bool) {
	p, ok := c.core().AdmitAt(c.clk.Now())
	return clockedPermit{Permit{p}, c.clk}, ok
}

type clockedPermit struct {
	Permit
	clk *fakeClock
}

func (p clockedPermit) Done(err error) { p.p.DoneAt(p.clk.Now(), err) }

func TestBreakerNeedsMinRequests(t *testing.T) {
	clk := newFakeClock()
	b := clocked{(&Breaker{}), clk}
	for i := 0; i < 19; i++ {
		if !b.Allow() {
			t.Fatalf("closed breaker refused attempt %d", i)
		}
		b.Record(errBoom)
	}
	if b.State() != BreakerClosed {
		t.Fatal("opened on 19 requests, want at least 20")
	}
	b.Record(errBoom)
	if b.State() != BreakerOpen || b.Allow() {
		t.Fatal("20 failures of 20 did not open the breaker")
	}
}

func TestBreakerOpensAboveHalf(t *testing.T) {
	clk := newFakeClock()
	b := clocked{(&Breaker{}), clk}
	for i := 0; i < 10; i++ {
		b.Record(nil)
		b.Record(errBoom)
	}
	if b.State() != BreakerClosed {
		t.Fatal("opened at exactly 50% errors, want more than 50%")
	}
	if r, f := b.Counts(); r != 20 || f != 10 {
		t.Fatalf("Counts() = %d, %d; want 20, 10", r, f)
	}
	b.Record(errBoom)
	if b.State() != BreakerOpen {
		t.Fatal("11 failures of 21 did not open the breaker")
	}
	if r, f := b.Counts(); r != 0 || f != 0 {
		t.Fatalf("Counts() after opening = %d, %d; want an empty window", r, f)
	}
}

func TestBreakerWindowSlides(t *testing.T) {
	clk := newFakeClock()
	b := clocked{(&Breaker{}), clk}
	for i := 0; i < 15; i++ {
		b.Record(errBoom)
	}
	clk.Advance(10 * time.Second) // those 15 leave the 10s window
	for i := 0; i < 15; i++ {
		b.Record(errBoom)
	}
	if b.State() != BreakerClosed {
		t.Fatal("failures older than the window were counted")
	}
	if r, _ := b.Counts(); r != 15 {
		t.Fatalf("Counts() = %d requests, want 15", r)
	}
	clk.Advance(5 * time.Second) // half the window later the 15 still count
	for i := 0; i < 5; i++ {
		b.Record(errBoom)
	}
	if b.State() != BreakerOpen {
		t.Fatal("20 failures within 10s did not open the breaker")
	}
}

func TestBreakerCooldownAndSingleProbe(t *testing.T) {
	clk := newFakeClock()
	var changes []string
	b := clocked{(&Breaker{OnStateChange: func(from, to BreakerState) {
		changes = append(changes, from.String()+">"+to.String())
	}}), clk}
	for i := 0; i < 20; i++ {
		b.Record(errBoom)
	}
	clk.Advance(5*time.Second - 1)
	if b.Allow() {
		t.Fatal("allowed before the 5s cooldown ended")
	}
	clk.Advance(1)
	if !b.Allow() {
		t.Fatal("refused the probe after the cooldown")
	}
	if b.State() != BreakerHalfOpen {
		t.Fatalf("state %v, want half-open", b.State())
	}
	for i := 0; i < 5; i++ {
		if b.Allow() {
			t.Fatal("let a second request through while the probe is out")
		}
	}
	b.Record(errBoom) // the probe failed
	if b.State() != BreakerOpen || b.Allow() {
		t.Fatal("a failed probe did not reopen the breaker")
	}
	clk.Advance(5 * time.Second)
	if !b.Allow() {
		t.Fatal("refused the second probe")
	}
	b.Record(nil)
	if b.State() != BreakerClosed || !b.Allow() || !b.Allow() {
		t.Fatal("a successful probe did not close the breaker")
	}
	want := []string{"closed>open", "open>half-open", "half-open>open", "open>half-open", "half-open>closed"}
	if len(changes) != len(want) {
		t.Fatalf("state changes %v, want %v", changes, want)
	}
	for i := range want {
		if changes[i] != want[i] {
			t.Fatalf("state changes %v, want %v", changes, want)
		}
	}
}

func TestBreakerLostProbe(t *testing.T) {
	clk := newFakeClock()
	b := clocked{(&Breaker{Cooldown: time.Second}), clk}
	for i := 0; i < 20; i++ {
		b.Record(errBoom)
	}
	clk.Advance(time.Second)
	if !b.Allow() {
		t.Fatal("refused the probe")
	}
	clk.Advance(time.Second - 1)
	if b.Allow() {
		t.Fatal("second probe before another cooldown")
	}
	clk.Advance(1)
	if !b.Allow() {
		t.Fatal("a lost probe blocked the breaker for good")
	}
}

func TestBreakerIgnoresOutcomesWhileOpen(t *testing.T) {
	clk := newFakeClock()
	b := clocked{(&Breaker{}), clk}
	for i := 0; i < 20; i++ {
		b.Record(errBoom)
	}
	for i := 0; i < 100; i++ {
		b.Record(nil)
	}
	if b.State() != BreakerOpen {
		t.Fatal("late successes closed an open breaker")
	}
}

func TestBreakerPermanentIsSuccess(t *testing.T) {
	b := clocked{new(Breaker), newFakeClock()} // zero value: defaults
	for i := 0; i < 40; i++ {
		b.Record(Permanent(errBoom))
	}
	if b.State() != BreakerClosed {
		t.Fatal("permanent errors opened the breaker")
	}
	if r, f := b.Counts(); r != 40 || f != 0 {
		t.Fatalf("Counts() = %d, %d; want 40, 0", r, f)
	}
}

func TestBreakerCustomConfig(t *testing.T) {
	clk := newFakeClock()
	b := clocked{(&Breaker{FailureRatio: 0.2, MinRequests: 5, Window: time.Second, Cooldown: time.Millisecond}), clk}
	for i := 0; i < 4; i++ {
		b.Record(nil)
	}
	b.Record(errBoom) // 1/5 = 20%, not above
	if b.State() != BreakerClosed {
		t.Fatal("opened at exactly the ratio")
	}
	b.Record(errBoom) // 2/6
	if b.State() != BreakerOpen {
		t.Fatal("did not open above the ratio")
	}
	clk.Advance(time.Millisecond)
	if !b.Allow() {
		t.Fatal("cooldown not honoured")
	}
}

func TestBreakerStateString(t *testing.T) {
	for s, want := range map[BreakerState]string{BreakerClosed: "closed", BreakerOpen: "open", BreakerHalfOpen: "half-open", 7: "BreakerState(7)"} {
		if got := s.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

func TestBreakerConcurrent(t *testing.T) {
	clk := newFakeClock()
	b := clocked{(&Breaker{Cooldown: time.Millisecond}), clk}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				if b.Allow() {
					if (i+g)%3 == 0 {
						b.Record(errBoom)
					} else {
						b.Record(nil)
					}
				}
				if i%50 == 0 {
					clk.Advance(time.Millisecond)
				}
				b.State()
				b.Counts()
			}
		}(g)
	}
	wg.Wait()
}
