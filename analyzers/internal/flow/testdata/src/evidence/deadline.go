package evidence

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"
)

// The deadline an operation's attempts run under, followed by value flow.

// The caller's context, handed to each attempt.
func callerCtx(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil { // want `deadline=caller`
			return nil
		}
	}
	return err
}

// A context made here with no deadline.
func background() error {
	ctx := context.Background()
	var err error
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil { // want `deadline=none`
			return nil
		}
	}
	return err
}

// A timeout over all attempts, derived from a cancellable background.
func timeout() error {
	base, stop := context.WithCancel(context.Background())
	defer stop()
	ctx, cancel := context.WithTimeout(base, time.Minute)
	defer cancel()
	var err error
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil { // want `deadline=set`
			return nil
		}
	}
	return err
}

// The default client: no context, no timeout.
func defaultGet(url string) error {
	for i := 0; i < 3; i++ {
		resp, err := http.Get(url) // want `deadline=none`
		if err == nil {
			return resp.Body.Close()
		}
	}
	return nil
}

// A client made here with a timeout.
func clientTimeout(url string) error {
	c := &http.Client{Timeout: 5 * time.Second}
	for i := 0; i < 3; i++ {
		resp, err := c.Get(url) // want `deadline=set`
		if err == nil {
			return resp.Body.Close()
		}
	}
	return nil
}

// A request without a context sent through the default client.
func noContextRequest(url string) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		resp, err := http.DefaultClient.Do(req) // want `deadline=none`
		if err == nil {
			return resp.Body.Close()
		}
	}
	return nil
}

// A request carrying the caller's context, through a client the model
// cannot see.
func callerRequest(ctx context.Context, c *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req) // want `deadline=caller`
		if err == nil {
			return resp.Body.Close()
		}
	}
	return nil
}

// Look-alike: a request without a context through a client the model
// cannot see (its Timeout may be set where it is made): unknown.
func fieldClient(s *server, url string) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		resp, err := s.client.Do(req) // want `deadline=unknown`
		if err == nil {
			return resp.Body.Close()
		}
	}
	return nil
}

type server struct {
	ctx    context.Context
	client *http.Client
}

// Look-alike: a context kept in a field: unknown.
func fieldCtx(s *server) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(s.ctx); err == nil { // want `deadline=unknown`
			return nil
		}
	}
	return err
}

// Look-alike: a context that is one thing or another: unknown.
func either(ctx context.Context, detach bool) error {
	if detach {
		ctx = context.Background()
	}
	var err error
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil { // want `deadline=unknown`
			return nil
		}
	}
	return err
}

// A goroutine's loop captures the caller's context.
func captured(ctx context.Context) {
	go func() {
		for {
			if err := op(ctx); err == nil { // want `deadline=caller`
				return
			}
			time.Sleep(time.Second)
		}
	}()
}

// An operation of this package that makes its own background context.
func detached() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = work(); err == nil { // want `deadline=none`
			return nil
		}
	}
	return err
}

func work() error {
	for range 1 { // a body the model keeps
	}
	return op(context.TODO())
}

// A compare-and-swap retried until it wins: a retry of local work.
func casIncrement(n *atomic.Int64) {
	for {
		old := n.Load()
		if n.CompareAndSwap(old, old+1) { // want `bound=none delay=none jitter=false deadline=unknown local`
			return
		}
	}
}
