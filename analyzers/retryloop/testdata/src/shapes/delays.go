package shapes

import (
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Delays whose value the analysis cannot see but whose growth it can: a
// configured base or cap is a value, not randomness, so the growth of the
// rest of the expression stands.

type pacing struct {
	base, max, interval time.Duration
	seconds             int64
	jitter              func() time.Duration
}

// A configured base shifted by the attempt grows.
func (p *pacing) shiftConfigured(url string) error {
	for attempt := 0; attempt < 5; attempt++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(p.base << attempt)
	}
	return errors.New("gave up")
}

// Doubling capped by a configured maximum grows.
func (p *pacing) cappedByConfig(url string) error {
	d := p.base
	for attempt := 0; attempt < 5; attempt++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(d)
		d = min(d*2, p.max)
	}
	return errors.New("gave up")
}

// The server's Retry-After on one path does not hide the doubling on
// the other (sleep = backoff; if the server said, sleep = its value).
func (p *pacing) retryAfterOrDoubling(url string) error {
	backoff := p.base
	var sleep time.Duration
	for attempt := 0; attempt < 5; attempt++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err == nil && resp.StatusCode < 500 {
			resp.Body.Close()
			return nil
		}
		sleep = backoff
		if err == nil {
			if s, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil {
				sleep = time.Duration(s) * time.Second
			}
			resp.Body.Close()
		}
		time.Sleep(sleep)
		backoff = min(sleep*2, p.max)
	}
	return errors.New("gave up")
}

// A delay helper with a second result (delay, ok): the delay result is
// judged by what the helper returns.
func delayOrStop(attempt int) (time.Duration, bool) {
	if attempt > 6 {
		return 0, false
	}
	return min(50*time.Millisecond<<attempt, 8*time.Second), true
}

func twoResults(url string) error {
	for attempt := 0; attempt < 8; attempt++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		d, ok := delayOrStop(attempt)
		if !ok {
			return err
		}
		time.Sleep(d)
	}
	return errors.New("gave up")
}

// Look-alikes.

// The same helper shape drawing its delay at random is jittered.
func nextRandomDelay(attempt int) (time.Duration, bool) {
	if attempt > 6 {
		return 0, false
	}
	return rand.N(50 * time.Millisecond << attempt), true
}

func twoResultsRandom(url string) error {
	for attempt := 0; attempt < 8; attempt++ { // want `retry site: shape=counted bound=counter delay=unknown jitter=yes ctx=none remote`
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		d, ok := nextRandomDelay(attempt)
		if !ok {
			return err
		}
		time.Sleep(d)
	}
	return errors.New("gave up")
}

// A configured interval, the same every attempt, is a config field the
// analysis cannot see (SPEC): unknown, not fixed.
func (p *pacing) configuredInterval(url string) error {
	for attempt := 0; attempt < 5; attempt++ { // want `retry site: shape=counted bound=counter delay=unknown jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(p.interval)
	}
	return errors.New("gave up")
}

// Two configured values multiplied are still a value: unknown growth.
func (p *pacing) configuredProduct(url string) error {
	for attempt := 0; attempt < 5; attempt++ { // want `retry site: shape=counted bound=counter delay=unknown jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(p.base * time.Duration(p.seconds))
	}
	return errors.New("gave up")
}

// A growing delay capped by a function value may be drawn at random:
// unknown, not un-jittered.
func (p *pacing) cappedByFuncValue(url string) error {
	d := p.base
	for attempt := 0; attempt < 5; attempt++ { // want `retry site: shape=counted bound=counter delay=unknown jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(min(d, p.jitter()))
		d *= 2
	}
	return errors.New("gave up")
}

// Only the server's value: server-directed or unknown, never fixed.
func (p *pacing) serverOnly(url string) error {
	for attempt := 0; attempt < 5; attempt++ { // want `retry site: shape=counted bound=counter delay=unknown jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err == nil && resp.StatusCode < 500 {
			resp.Body.Close()
			return nil
		}
		if err != nil {
			return err
		}
		s, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		resp.Body.Close()
		time.Sleep(time.Duration(s) * time.Second)
	}
	return errors.New("gave up")
}

// Look-alike: the delay is computed once before the loop from the attempts
// left; the counter changes, the delay does not.
type udsWriter struct{ connectTimeout time.Duration }

func (u *udsWriter) dialOnce(addr string, timeout time.Duration) (net.Conn, error) {
	attemptsLeft := 3
	backoff := u.connectTimeout / time.Duration(attemptsLeft+1)
	if backoff > time.Second {
		backoff = time.Second
	}
	for { // want `retry site: shape=bare bound=counter delay=unknown jitter=no ctx=set remote`
		attemptsLeft--
		c, err := net.DialTimeout("unix", addr, timeout)
		if err != nil {
			if attemptsLeft > 0 {
				time.Sleep(backoff)
				continue
			}
			return nil, err
		}
		return c, nil
	}
}
