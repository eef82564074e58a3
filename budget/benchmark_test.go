package budget

import (
	"testing"
	"time"
)

// mixed is the hot-path workload shared by the benchmarks: nine successes,
// then a failure followed by the retry decision.
func mixed(b *Budget, i int) {
	if i%10 == 9 {
		b.RecordFailure()
		b.Allow()
		return
	}
	b.RecordSuccess()
}

func BenchmarkBudget(b *testing.B) {
	cases := []struct {
		name string
		op   func(*Budget, int)
	}{
		{"Allow", func(bu *Budget, _ int) { bu.Allow() }},
		{"RecordSuccess", func(bu *Budget, _ int) { bu.RecordSuccess() }},
		{"RecordFailure", func(bu *Budget, _ int) { bu.RecordFailure() }},
		{"Record", func(bu *Budget, i int) {
			if i&1 == 0 {
				bu.Record(nil)
			} else {
				bu.Record(errBoom)
			}
		}},
		{"Mixed", mixed},
	}
	for _, c := range cases {
		b.Run(c.name+"/serial", func(b *testing.B) {
			var bu Budget
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.op(&bu, i)
			}
		})
		b.Run(c.name+"/parallel", func(b *testing.B) {
			var bu Budget
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					c.op(&bu, i)
					i++
				}
			})
		})
	}
}

func BenchmarkRatioBudget(b *testing.B) {
	var r RatioBudget
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			r.Record(nil)
			if i%10 == 9 {
				r.Allow()
			}
			i++
		}
	})
}

func BenchmarkBreaker(b *testing.B) {
	var br Breaker
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if br.Allow() {
				br.Record(nil)
			}
		}
	})
}

func BenchmarkBackoffDelay(b *testing.B) {
	bo := Backoff{}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bo.Delay(i & 15)
	}
}

func BenchmarkJitter(b *testing.B) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			Jitter(time.Second)
		}
	})
}
