package helpers // want package:"retry-relevant"

import (
	"context"
	"math/rand"
	"net/http"
	"strings"
	"time"
)

func Fetch(url string) (*http.Response, error) { // want Fetch:`func: remote`
	return http.Get(url)
}

func Charge(ctx context.Context, c *http.Client, url string) error { // want Charge:`func: remote writes=POST`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader("{}"))
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func ChargeFreshKey(ctx context.Context, c *http.Client, url string) error { // want ChargeFreshKey:`func: remote writes=POST\+minted-key`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", time.Now().String())
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Pause(d time.Duration) { // want Pause:`func: waits`
	time.Sleep(d)
}

func PauseCtx(ctx context.Context, d time.Duration) error { // want PauseCtx:`func: waits\(ctx\)`
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

func Backoff(attempt int) time.Duration { // want Backoff:`func: delay=growing`
	return 100 * time.Millisecond << attempt
}

func JitteredBackoff(attempt int) time.Duration { // want JitteredBackoff:`func: random delay=unknown\+jitter`
	d := 100 * time.Millisecond << attempt
	return time.Duration(rand.Int63n(int64(d)))
}

func Pure(a, b int) int { return a + b }

// NewRequest builds the package's requests; its caller names the method.
func NewRequest(ctx context.Context, method, url string) (*http.Request, error) { // want NewRequest:`func: builds\(method=1 headers=\[Content-Type\] minted=false\)`
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

// NewPostRequest builds POSTs with a key of their own, minted per call.
func NewPostRequest(ctx context.Context, url string) (*http.Request, error) { // want NewPostRequest:`func: builds\(method=-1POST headers=\[Content-Type Idempotency-Key\] minted=true\)`
	req, err := NewRequest(ctx, http.MethodPost, url)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", time.Now().String())
	return req, nil
}

// A chain of delay helpers declared callers first: the facts settle
// whatever the order, and the jitter two calls down reaches the top.
func ChainDelay(attempt int) (time.Duration, error) { // want ChainDelay:`func: random delay=unknown\+jitter`
	const maxShift = 1<<6 - 1 // a constant shift grows nothing
	if attempt > maxShift {
		return 0, errTooMany
	}
	return chainJitter(attempt), nil
}

func chainJitter(attempt int) time.Duration { // want chainJitter:`func: random delay=unknown\+jitter`
	return chainRand(100 * time.Millisecond << attempt)
}

func chainRand(d time.Duration) time.Duration { // want chainRand:`func: random delay=unknown\+jitter`
	return time.Duration(rand.Int63n(int64(d)))
}

var errTooMany = errorString("too many attempts")

type errorString string

func (e errorString) Error() string { return string(e) }

// A delay beside an ok result, from a configured field: a plain value.
type Pace struct{ Interval time.Duration }

func (p *Pace) Next(attempt int) (bool, time.Duration) { // want Next:`func: delay=unknown\+value@1`
	return attempt < 3, p.Interval
}

// Sources of retry ticks: an iterator that yields once per attempt and
// waits between yields, and a channel a goroutine fills at a pace.
func RetryTicks(n int, base time.Duration) func(func(int) bool) { // want RetryTicks:`func: ticks`
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
			time.Sleep(base << i)
		}
	}
}

func TickChan(n int) <-chan int { // want TickChan:`func: ticks`
	ch := make(chan int)
	go func() {
		defer close(ch)
		for i := 0; i < n; i++ {
			ch <- i
			<-time.After(time.Second)
		}
	}()
	return ch
}

// Look-alikes: a plain sequence, and a producer of work that never waits.
func Count(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

func Produce(items []string) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		for _, it := range items {
			ch <- it
		}
	}()
	return ch
}

// A backoff object whose draw is gated by its Jitter field (index 2).
type Gated struct {
	attempts int
	Base     time.Duration
	Jitter   time.Duration
}

func (g *Gated) Next() (d time.Duration) { // want Next:`func: delay=growing\+jitter\(if field 2\)`
	d = g.Base << g.attempts
	if g.Jitter > 0 {
		d += time.Duration(rand.Int63n(int64(g.Jitter)))
	}
	g.attempts++
	return
}
