package excluded

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"time"
)

// Failover: each attempt targets the next endpoint.
func failover(urls []string) (*http.Response, error) {
	for _, u := range urls {
		resp, err := http.Get(u)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("all failed")
}

// Failover by index.
func failoverIndex(urls []string) (*http.Response, error) {
	for i := 0; i < len(urls); i++ {
		resp, err := http.Get(urls[i])
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("all failed")
}

// Failover by incremented port.
func ports(host string) (net.Conn, error) {
	port := 8000
	for i := 0; i < 10; i++ {
		c, err := net.Dial("tcp", net.JoinHostPort(host, itoa(port)))
		if err == nil {
			return c, nil
		}
		port++
	}
	return nil, errors.New("no port")
}

func itoa(i int) string { return string(rune('0' + i)) }

// A read loop: continues on success, leaves on error.
func read(r io.Reader) error {
	buf := make([]byte, 512)
	for {
		_, err := r.Read(buf)
		if err != nil {
			return err
		}
	}
}

// A scan loop.
func scan(r io.Reader) int {
	n := 0
	s := bufio.NewScanner(r)
	for s.Scan() {
		n++
	}
	return n
}

// An accept loop that stops on error.
func accept(l net.Listener, handle func(net.Conn)) error {
	for {
		c, err := l.Accept()
		if err != nil {
			return err
		}
		go handle(c)
	}
}

// Polling for a condition: a failure leaves.
func poll(ctx context.Context, url string) error {
	for {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// A worker loop over a channel.
func worker(jobs <-chan string, do func(string) error) {
	for j := range jobs {
		if err := do(j); err != nil {
			continue
		}
	}
}

// A ticker loop.
func ticker(ctx context.Context, do func() error) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = do()
		}
	}
}

// A collection loop: each element is a different operation.
func batch(items []string, send func(string) error) error {
	for _, it := range items {
		if err := send(it); err != nil {
			return err
		}
	}
	return nil
}

// A consume loop with no wait on error is not a retry site.
func logErrors(next func() (string, error), log func(error)) {
	for {
		_, err := next()
		if err != nil {
			log(err)
			continue
		}
	}
}

// Pagination: the loop advances a cursor.
func pages(fetch func(string) (string, error)) error {
	cursor := ""
	for {
		next, err := fetch(cursor)
		if err != nil {
			return err
		}
		if next == "" {
			return nil
		}
		cursor = next
	}
}

// A worker loop taking work from a channel in a select.
func selectWorker(ctx context.Context, in <-chan string, send func(string) error) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-in:
			if err := send(m); err != nil {
				continue
			}
		}
	}
}

// A reader whose exit does not depend on the failing call (runtime/pprof's
// profileWriter): the error is remembered, not retried.
func remember(read func() ([]byte, bool), add func([]byte) error) error {
	var err error
	for {
		data, eof := read()
		if e := add(data); e != nil && err == nil {
			err = e
		}
		if eof {
			break
		}
	}
	return err
}

type tb interface{ Fatal(...any) }

// A benchmark loop: failure aborts, success goes on.
func bench(n int, url string, b interface{ Fatal(args ...any) }) {
	for i := 0; i < n; i++ {
		res, err := http.Get(url)
		if err != nil {
			panic(err)
		}
		res.Body.Close()
	}
}

// Reading interim 1xx responses until the final one (net/http's
// readLoop): the status is never tested as a failure.
func interim(read func() (*http.Response, error), got func(int) error) (*http.Response, error) {
	for {
		resp, err := read()
		if err != nil {
			return nil, err
		}
		code := resp.StatusCode
		if 100 <= code && code <= 199 {
			if err := got(code); err != nil {
				return nil, err
			}
			continue
		}
		return resp, nil
	}
}

// Walking up a directory tree: each pass looks at a different directory.
func findRoot(dir string, stat func(string) error) string {
	for d := dir; ; {
		if err := stat(d + "/.git"); err == nil {
			return d
		}
		parent := d[:len(d)-1]
		if parent == d {
			return dir
		}
		d = parent
	}
}

type conn struct {
	current string
	pool    []string
}

func (c *conn) dial() error { return nil }

// Failover through a field: each pass stores the next server where the
// dial reads it (nats.go's connect).
func (c *conn) connect() error {
	var err error
	for i := 0; i < len(c.pool); i++ {
		c.current = c.pool[i]
		if err = c.dial(); err == nil {
			break
		}
	}
	return err
}

// Reading parts until EOF: EOF is a sentinel the nil error never equals
// (minio's multipart upload).
func parts(read func([]byte) (int, error), upload func([]byte) error) error {
	buf := make([]byte, 16)
	for n := 1; n <= 100; n++ {
		k, rerr := read(buf)
		if rerr == io.EOF && n > 1 {
			break
		}
		if rerr != nil && rerr != io.ErrUnexpectedEOF && rerr != io.EOF {
			return rerr
		}
		if err := upload(buf[:k]); err != nil {
			return err
		}
		if rerr == io.EOF {
			break
		}
	}
	return nil
}

// Batches drained from a channel (minio's RemoveObjects).
func batches(in <-chan string, send func([]string) error) error {
	finish := false
	for !finish {
		var batch []string
		for s := range in {
			batch = append(batch, s)
		}
		if len(batch) == 0 {
			finish = true
		}
		if err := send(batch); err != nil {
			continue
		}
	}
	return nil
}

// A periodic poller: it waits for the next tick after success and after
// failure alike (kafka-go's lag reader).
func lag(ctx context.Context, read func() (int, error), observe func(int)) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		n, err := read()
		if err != nil {
			observe(-1)
		} else {
			observe(n)
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return
		}
	}
}

// Waiting for a state change, with an error consulted only on the way out
// (grpc's blocking dial): the error never decides between leaving and
// going round.
func blockingDial(ctx context.Context, state func() int, connErr func() error, wait func(context.Context, int) bool) error {
	for {
		s := state()
		if s == 2 {
			return nil
		}
		if !wait(ctx, s) {
			if err := connErr(); err != nil && s == 3 {
				return err
			}
			return ctx.Err()
		}
	}
}

// A test repeating a call it expects to fail (net's lookup tests): success
// aborts the test, failure is the expected outcome.
func expectFailure(ctx context.Context, n int, lookup func(context.Context) error) {
	for i := 0; i < n; i++ {
		if err := lookup(ctx); err == nil {
			panic("lookup should fail")
		}
		time.Sleep(time.Millisecond)
	}
}

type idleConn struct{ c net.Conn }

type connPool struct{ idle []*idleConn }

func (p *connPool) popIdle() (*idleConn, error) {
	if len(p.idle) == 0 {
		return nil, nil
	}
	cn := p.idle[len(p.idle)-1]
	p.idle = p.idle[:len(p.idle)-1]
	return cn, nil
}

func healthy(cn *idleConn) bool {
	_, err := cn.c.Write(nil)
	return err == nil
}

// Draining a pool's idle connections (go-redis's Get): each pass takes the
// next connection and checks it; the loop ends when the pool runs dry.
func getIdle(p *connPool, attempts int) (*idleConn, error) {
	for i := 0; i < attempts; i++ {
		cn, err := p.popIdle()
		if err != nil {
			return nil, err
		}
		if cn == nil {
			break
		}
		if !healthy(cn) {
			cn.c.Close()
			continue
		}
		return cn, nil
	}
	return nil, errors.New("no idle connection")
}

// The same with a comma-ok source: a queue of endpoints to probe.
func firstReachable(next func() (string, bool)) (net.Conn, error) {
	for {
		addr, ok := next()
		if !ok {
			break
		}
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		return conn, nil
	}
	return nil, errors.New("no endpoint reachable")
}

// A poller running every job of each tick: a failed job is logged and the
// next tick comes anyway, success or not.
func runJobs(ctx context.Context, jobs []string, run func(context.Context, string) error, logf func(string, ...any)) {
	for {
		for _, j := range jobs {
			if err := run(ctx, j); err != nil {
				logf("job %s: %v", j, err)
				continue
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Minute):
		}
	}
}

// An outer loop around a write-until-error inner loop (net's timeout
// tests): the write's error is how the inner loop ends, not a failure the
// outer loop retries.
func fillBuffer(c net.Conn, d time.Duration, next func(time.Duration) (time.Duration, bool)) error {
	for {
		if err := c.SetWriteDeadline(time.Now().Add(d)); err != nil {
			return err
		}
		var err error
		for {
			_, err = c.Write([]byte("x"))
			if err != nil {
				break
			}
		}
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			return err
		}
		var ok bool
		if d, ok = next(d); !ok {
			return nil
		}
	}
}

type jobStatus struct{ Done bool }

// Polling a status whose error leaves: the loop waits for a condition, no
// failed call goes round.
func awaitJob(ctx context.Context, get func(context.Context) (jobStatus, error)) error {
	for {
		st, err := get(ctx)
		if err != nil {
			return err
		}
		if err == nil && st.Done {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// A poll that copies the status first: an error leaves, "not 200" is
// "not yet", so nothing failed goes round.
func pollCopied(c *http.Client, url string) error {
	for {
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		code := resp.StatusCode
		resp.Body.Close()
		if code == http.StatusOK {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// A status variable that is reassigned is not a copy of one response's
// status: a poll on it stays a poll.
func pollReassigned(c *http.Client, url string) error {
	code := 0
	for code != http.StatusOK {
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		code = resp.StatusCode
		resp.Body.Close()
		time.Sleep(time.Second)
	}
	return nil
}

// Walking an error chain: Unwrap hands back the wrapped error, a value,
// not the failure of an attempt (newrelic's errorCause).
func errorCause(err error) error {
	for {
		if u, ok := err.(interface{ Unwrap() error }); ok {
			if next := u.Unwrap(); nil != next {
				err = next
				continue
			}
		}
		return err
	}
}

type causer struct{ cause error }

func (c *causer) Error() string { return "wrapped" }
func (c *causer) Cause() error  { return c.cause }

// The same through a method of a concrete wrapper (pkg/errors' Cause).
func rootCause(c *causer) error {
	for {
		next, ok := c.Cause().(*causer)
		if !ok {
			return c.Cause()
		}
		c = next
	}
}

// Walking up a domain name, one lookup per label: each pass asks about
// the next name, a collection however a lookup fails.
func nearestZone(ctx context.Context, hc *http.Client, fqdn string, labels int) (string, error) {
	name := fqdn
	var lastErr error
	for range labels {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://dns.example/zones?name="+name, nil)
		if err != nil {
			return "", err
		}
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return name, nil
			}
		} else {
			lastErr = err
		}
		name = parentDomain(name)
	}
	return "", lastErr
}

func parentDomain(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] == '.' {
			return name[i+1:]
		}
	}
	return ""
}

// A worker that selects its next job and handles it after the select: a
// failure waits and takes the next job, it does not retry this one.
func selectThenHandle(ctx context.Context, jobs <-chan string, c *http.Client) {
	for {
		var job string
		select {
		case job = <-jobs:
		case <-ctx.Done():
			return
		}
		resp, err := c.Get(job)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		resp.Body.Close()
	}
}

// A refresh loop that re-arms its timer for the same period after a
// failure as after a success, the success through a function it hands
// the timer to: a schedule, not a retry.
func refreshScheduled(ctx context.Context, c *http.Client, url string) {
	t := time.NewTimer(0)
	for {
		select {
		case <-t.C:
			resp, err := c.Get(url)
			if err != nil {
				t.Reset(time.Hour)
				continue
			}
			resp.Body.Close()
			schedule(t)
		case <-ctx.Done():
			return
		}
	}
}

func schedule(t *time.Timer) { t.Reset(time.Hour) }
