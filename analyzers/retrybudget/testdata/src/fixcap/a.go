package fixcap

import (
	"context"
	"database/sql"
	"errors"
	"net"
	"net/http"
	"time"
)

type Pool struct{ addr string }

// dial is the shape of a connection pool's dial probe: it retries forever
// with a fixed pause. The fix caps it and guards it with the pool's budget.
func (p *Pool) dial() (net.Conn, error) {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		conn, err := net.Dial("tcp", p.addr)
		if err == nil {
			return conn, nil
		}
		time.Sleep(time.Second)
	}
}

// A labeled loop with a comment on its header keeps both.
func (p *Pool) dialLabeled() (net.Conn, error) {
retry:
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		// keep trying: the broker restarts often
		conn, err := net.Dial("tcp", p.addr)
		if err != nil {
			time.Sleep(time.Second)
			continue retry
		}
		return conn, nil
	}
}

// attempt is taken in the function: the counter gets another name.
func fetch(c *http.Client, url string) (*http.Response, error) {
	attempt := "first"
	_ = attempt
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		resp, err := c.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(2 * time.Second)
	}
}

// A flag loop keeps its condition.
func fetchUntilStopped(c *http.Client, url string, stop *bool) (*http.Response, error) {
	for !*stop { // want `retry loop has no attempt cap, deadline or retry budget`
		resp, err := c.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("stopped")
}

// A labeled flag loop followed by a return gives up there too; the label
// stays.
func fetchLabeledUntilStopped(c *http.Client, url string, stop *bool) (*http.Response, error) {
retry:
	for !*stop { // want `retry loop has no attempt cap, deadline or retry budget`
		resp, err := c.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
		continue retry
	}
	return nil, errors.New("stopped")
}

// Local work that waits between attempts gets the cap alone: there is no
// dependency to budget.
func openLocal(db *sql.DB, migrate func(*sql.DB) error) error {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		err := migrate(db)
		if err == nil {
			return nil
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// Negatives: the loop stays as it is.

// A retry on a failure status is not guarded by err: no fix.
func statusRetry(c *http.Client, url string) (*http.Response, error) {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		resp, err := c.Get(url)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
}

// The error is scoped to the if statement: no statement to guard after.
func scoped(c *http.Client, url string) error {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		if _, err := c.Get(url); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// No error result: giving up could only read as success.
func noResult(addr string) {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
			return
		}
		time.Sleep(time.Second)
	}
}

// The loop already has an init statement: rewriting its header is not
// mechanical.
func withInit(addr string) (net.Conn, error) {
	for tries := 0; ; tries++ { // want `retry loop has no attempt cap, deadline or retry budget`
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			return conn, nil
		}
		time.Sleep(time.Duration(tries) * time.Second)
	}
}

// Two operations: which error gives up is not one statement's.
func twoOps(addr string) (net.Conn, error) {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if _, err := conn.Write([]byte("hello")); err != nil {
			conn.Close()
			time.Sleep(time.Second)
			continue
		}
		return conn, nil
	}
}

// A comment inside the loop header would be lost by the rewrite: no fix.
func commented(addr string) (net.Conn, error) {
	for /* until the broker is up */ { // want `retry loop has no attempt cap, deadline or retry budget`
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			return conn, nil
		}
		time.Sleep(time.Second)
	}
}

// A loop watching its context is cancellable: not unbounded, so it gets
// the budget guard without a cap.
func watched(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	for { // want `retry loop has no retry budget`
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			return conn, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// The loop releases what it holds before it gives up (db.Close(); return):
// a new return would leak it, so no fix.
func openDB(ctx context.Context, open func() (*sql.DB, error)) (*sql.DB, error) {
	db, err := open()
	if err != nil {
		return nil, err
	}
	for { // want `retry loop has no retry budget`
		err := db.PingContext(ctx)
		if err == nil {
			return db, nil
		}
		select {
		case <-ctx.Done():
			db.Close()
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// A retry that goes round by a labeled continue before the wait would not
// pass the guard: no fix.
func skipsGuard(c *http.Client, url string, temporary func(error) bool) (*http.Response, error) {
attempts:
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := c.Get(url)
		if err != nil && temporary(err) {
			continue attempts
		}
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return nil, errors.New("gave up")
}

// Success leaves by a labeled break: the code after the loop runs on
// success too, so it is no way to give up. No fix.
func breaksOnSuccess(c *http.Client, url string) (*http.Response, error) {
	var resp *http.Response
	var err error
attempts:
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err = c.Get(url)
		switch {
		case err == nil:
			break attempts
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return resp, err
}

// A loop that watches only a stop channel is unbounded too (shutdown is
// not a deadline): capped and guarded, the stop case kept.
func (p *Pool) dialUntilClosed(done chan struct{}) (net.Conn, error) {
	for { // want `retry loop has no attempt cap, deadline or retry budget`
		conn, err := net.Dial("tcp", p.addr)
		if err == nil {
			return conn, nil
		}
		select {
		case <-done:
			return nil, errors.New("closed")
		case <-time.After(time.Second):
		}
	}
}
