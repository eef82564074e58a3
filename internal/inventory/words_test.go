package inventory

import (
	"testing"
	"time"
)

func TestDurationWords(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Second: "1 s", 1500 * time.Millisecond: "1.5 s", 2 * time.Minute: "2 min", 90 * time.Second: "90 s",
		200 * time.Millisecond: "200 ms", 250 * time.Microsecond: "250 µs", 0: "0",
	} {
		if got := durationWords(d); got != want {
			t.Errorf("durationWords(%v) = %q, want %q", d, got, want)
		}
	}
	for _, c := range []struct {
		lo, hi time.Duration
		want   string
	}{
		{200 * time.Millisecond, 400 * time.Millisecond, "200–400 ms"},
		{time.Second, 2 * time.Second, "1–2 s"},
		{500 * time.Millisecond, 1500 * time.Millisecond, "500 ms–1.5 s"},
		{0, time.Second, "0–1 s"},
	} {
		if got := rangeWords(c.lo, c.hi); got != c.want {
			t.Errorf("rangeWords(%v, %v) = %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}
