package shapes

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// The attempt count the model reads from a loop header (Site.Attempts),
// and none where the header does not show it.

func fromOne(c *http.Client, req *http.Request) error {
	for i := 1; i <= 4; i++ { // want `retry site: shape=counted .* attempts=4$`
		if resp, err := c.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func fromZero(c *http.Client, req *http.Request) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted .* attempts=3$`
		if resp, err := c.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

const tries = 6

func rangeConst(c *http.Client, req *http.Request) error {
	for range tries { // want `retry site: shape=counted .* attempts=6$`
		if resp, err := c.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A limit read at run time: the count is unknown, so none is printed.
func runtimeLimit(c *http.Client, req *http.Request, n int) error {
	for i := 0; i < n; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown remote req=\?$`
		if resp, err := c.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A counter the body moves as well: the header's count is not the count.
func skipsAhead(c *http.Client, req *http.Request) error {
	for i := 0; i < 5; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown remote req=\?$`
		resp, err := c.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		if errors.Is(err, context.DeadlineExceeded) {
			i++
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// No limit at all: unbounded.
func forever(c *http.Client, req *http.Request) error {
	for { // want `retry site: shape=bare bound=none .* attempts=unbounded$`
		if resp, err := c.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
}
