package budget

import (
	"testing"
	"time"
)

// mixed is the hot-path workload shared by the benchmarks: nine successes,
// then a failure followed by the retry decision.
func mixed(b RetryBudget, i int) {
	if i%10 == 9 {
		b.Record(errBoom)
		b.Allow()
		return
	}
	b.Record(nil)
}

func BenchmarkBudget(b *testing.B) {
	cases := []struct {
		name string
		op   func(RetryBudget, int)
	}{
		{"Allow", func(bu RetryBudget, _ int) { bu.Allow() }},
		{"RecordSuccess", func(bu RetryBudget, _ int) { bu.Record(nil) }},
		{"RecordFailure", func(bu RetryBudget, _ int) { bu.Record(errBoom) }},
		{"Record", func(bu RetryBudget, i int) {
			if i&1 == 0 {
				bu.Record(nil)
			} else {
				bu.Record(errBoom)
			}
		}},
		{"Mixed", mixed},
	}
	kinds := []struct {
		name string
		new  func() RetryBudget
	}{
		{"Adaptive", func() RetryBudget { return new(Adaptive) }},
		{"TokenBucket", func() RetryBudget { return new(TokenBucket) }},
	}
	for _, k := range kinds {
		for _, c := range cases {
			b.Run(k.name+"/"+c.name+"/serial", func(b *testing.B) {
				bu := k.new()
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					c.op(bu, i)
				}
			})
			b.Run(k.name+"/"+c.name+"/parallel", func(b *testing.B) {
				bu := k.new()
				b.ReportAllocs()
				b.RunParallel(func(pb *testing.PB) {
					i := 0
					for pb.Next() {
						c.op(bu, i)
						i++
					}
				})
			})
		}
	}
}

func BenchmarkBreaker(b *testing.B) {
	var br Breaker
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if p, ok := br.Admit(); ok {
				p.Done(nil)
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
