package budget

import (
	"context"
	"math"
	"testing"
	"time"
)

// fixed returns a Rand that always returns r.
func fixed(r float64) func() float64 { return func() float64 { return r } }

// cycle returns a Rand that returns rs in turn, forever.
func cycle(rs ...float64) func() float64 {
	i := 0
	return func() float64 {
		r := rs[i%len(rs)]
		i++
		return r
	}
}

func TestBackoffZeroValueIsFullJitter(t *testing.T) {
	b := Backoff{Rand: fixed(0.5)}
	want := []time.Duration{
		50 * time.Millisecond, // [0, 100ms)
		100 * time.Millisecond,
		200 * time.Millisecond,
		400 * time.Millisecond,
		800 * time.Millisecond,
		1600 * time.Millisecond,
		3200 * time.Millisecond,
		5 * time.Second, // 100ms·2⁷ = 12.8s, capped at 10s
		5 * time.Second,
	}
	for n, w := range want {
		if got := b.Delay(n); got != w {
			t.Errorf("Delay(%d) = %v, want %v", n, got, w)
		}
	}
}

func TestBackoffDelayStaysInHalfOpenInterval(t *testing.T) {
	for _, r := range []float64{0, 1e-12, 0.25, 0.999999999999, 1, 1.5, -0.5, math.NaN(), math.Inf(1)} {
		b := Backoff{Rand: fixed(r)}
		for n := 0; n < 12; n++ {
			d := b.Delay(n)
			ceil := ceiling(DefaultBase, DefaultCap, 2, n)
			if d < 0 || d >= ceil {
				t.Errorf("r=%v: Delay(%d) = %v, want in [0, %v)", r, n, d, ceil)
			}
		}
	}
}

func TestBackoffNoOverflow(t *testing.T) {
	huge := Backoff{Base: time.Hour, Cap: math.MaxInt64, Jitter: NoJitter}
	for _, n := range []int{0, 1, 20, 62, 63, 64, 1000, math.MaxInt32, math.MaxInt} {
		d := huge.Delay(n)
		if d <= 0 {
			t.Errorf("huge NoJitter Delay(%d) = %v, want positive", n, d)
		}
		for _, m := range []JitterMode{FullJitter, EqualJitter, DecorrelatedJitter, NoJitter} {
			b := Backoff{Jitter: m, Rand: fixed(0.999)}
			if d := b.Delay(n); d < 0 || d > DefaultCap {
				t.Errorf("%v Delay(%d) = %v, want in [0, 10s]", m, n, d)
			}
		}
	}
	if got := huge.Delay(math.MaxInt); got != math.MaxInt64 {
		t.Errorf("huge Delay(MaxInt) = %v, want the cap", got)
	}
	seq := Backoff{Jitter: DecorrelatedJitter, Cap: math.MaxInt64, Base: time.Hour, Rand: fixed(0.999)}.Start()
	for i := 0; i < 100; i++ {
		if d := seq.Next(); d < time.Hour {
			t.Fatalf("decorrelated Next #%d = %v, want >= Base", i, d)
		}
	}
}

func TestBackoffNegativeRetryIsFirst(t *testing.T) {
	b := Backoff{Jitter: NoJitter}
	if got := b.Delay(-5); got != DefaultBase {
		t.Fatalf("Delay(-5) = %v, want %v", got, DefaultBase)
	}
}

func TestBackoffNoJitter(t *testing.T) {
	b := Backoff{Base: time.Second, Cap: 5 * time.Second, Jitter: NoJitter}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	for n, w := range want {
		if got := b.Delay(n); got != w {
			t.Errorf("Delay(%d) = %v, want %v", n, got, w)
		}
	}
}

func TestBackoffCapBelowBase(t *testing.T) {
	b := Backoff{Base: time.Second, Cap: 300 * time.Millisecond, Jitter: NoJitter}
	if got := b.Delay(0); got != 300*time.Millisecond {
		t.Fatalf("Delay(0) = %v, want the cap 300ms", got)
	}
}

func TestBackoffEqualJitter(t *testing.T) {
	for _, r := range []float64{0, 0.5, 0.999} {
		b := Backoff{Jitter: EqualJitter, Rand: fixed(r)}
		for n := 0; n < 10; n++ {
			c := ceiling(DefaultBase, DefaultCap, 2, n)
			d := b.Delay(n)
			if d < c/2 || d >= c {
				t.Errorf("r=%v Delay(%d) = %v, want in [%v, %v)", r, n, d, c/2, c)
			}
		}
	}
	if got := (Backoff{Jitter: EqualJitter, Rand: fixed(0)}).Delay(1); got != 100*time.Millisecond {
		t.Errorf("Delay(1) with r=0 = %v, want 100ms", got)
	}
}

func TestBackoffDecorrelatedJitter(t *testing.T) {
	b := Backoff{Jitter: DecorrelatedJitter, Rand: cycle(0.9, 0.1, 0.99, 0.5)}
	seq := b.Start()
	prev := DefaultBase
	for i := 0; i < 30; i++ {
		d := seq.Next()
		hi := 3 * prev
		if d < DefaultBase || d > DefaultCap || (d >= hi && d != DefaultCap) {
			t.Fatalf("Next #%d = %v, want min(10s, [100ms, %v))", i, d, hi)
		}
		prev = d
	}
	if seq.n != 30 {
		t.Fatalf("%d retries counted, want 30", seq.n)
	}
	// Stateless Delay draws from the envelope.
	for n := 0; n < 10; n++ {
		d := (Backoff{Jitter: DecorrelatedJitter, Rand: fixed(0.999)}).Delay(n)
		if d < DefaultBase || d > ceiling(DefaultBase, DefaultCap, 3, n+1) {
			t.Errorf("Delay(%d) = %v outside the envelope", n, d)
		}
	}
	// With r=0 each delay is Base.
	if got := (Backoff{Jitter: DecorrelatedJitter, Rand: fixed(0)}).Start().Next(); got != DefaultBase {
		t.Errorf("Next with r=0 = %v, want Base", got)
	}
}

func TestSequenceFollowsDelay(t *testing.T) {
	b := Backoff{Rand: fixed(0.75), Base: 10 * time.Millisecond, Cap: time.Second}
	seq := b.Start()
	for n := 0; n < 12; n++ {
		if got, want := seq.Next(), b.Delay(n); got != want {
			t.Fatalf("Next #%d = %v, want Delay(%d) = %v", n, got, n, want)
		}
	}
	// Two sequences from one policy are independent.
	s1, s2 := b.Start(), b.Start()
	s1.Next()
	s1.Next()
	if got, want := s2.Next(), b.Delay(0); got != want {
		t.Fatalf("fresh sequence Next = %v, want %v", got, want)
	}
}

func TestBackoffDefaultRandInRange(t *testing.T) {
	var b Backoff
	for i := 0; i < 2000; i++ {
		if d := b.Delay(3); d < 0 || d >= 800*time.Millisecond {
			t.Fatalf("Delay(3) = %v, want in [0, 800ms)", d)
		}
	}
}

func TestJitter(t *testing.T) {
	for _, d := range []time.Duration{-time.Second, 0} {
		if got := Jitter(d); got != 0 {
			t.Errorf("Jitter(%v) = %v, want 0", d, got)
		}
	}
	if got := Jitter(1); got != 0 {
		t.Errorf("Jitter(1ns) = %v, want 0", got)
	}
	seen := map[bool]bool{}
	for i := 0; i < 1000; i++ {
		got := Jitter(time.Second)
		if got < 0 || got >= time.Second {
			t.Fatalf("Jitter(1s) = %v, want in [0, 1s)", got)
		}
		seen[got < 500*time.Millisecond] = true
	}
	if len(seen) != 2 {
		t.Fatal("Jitter(1s) never fell in one half of its range in 1000 draws")
	}
}

func TestSleepReturnsAtOnce(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	short, cancel2 := context.WithTimeout(context.Background(), time.Hour)
	defer cancel2()
	tests := []struct {
		name string
		ctx  context.Context
		d    time.Duration
		want error
	}{
		{"canceled", canceled, time.Hour, context.Canceled},
		{"canceled zero wait", canceled, 0, context.Canceled},
		{"zero wait", context.Background(), 0, nil},
		{"negative wait", context.Background(), -time.Second, nil},
		{"wait past deadline", short, 2 * time.Hour, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		start := time.Now()
		if got := Sleep(tt.ctx, tt.d); got != tt.want {
			t.Errorf("%s: Sleep = %v, want %v", tt.name, got, tt.want)
		}
		if el := time.Since(start); el > time.Second {
			t.Errorf("%s: Sleep took %v, want at once", tt.name, el)
		}
	}
}

func TestSleepWaitsAndIsCanceled(t *testing.T) {
	start := time.Now()
	if err := Sleep(context.Background(), 20*time.Millisecond); err != nil {
		t.Fatalf("Sleep = %v", err)
	}
	if el := time.Since(start); el < 20*time.Millisecond {
		t.Fatalf("Sleep(20ms) returned after %v", el)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	start = time.Now()
	if err := Sleep(ctx, time.Hour); err != context.Canceled {
		t.Fatalf("Sleep = %v, want context.Canceled", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("canceled Sleep returned after %v", el)
	}
}
