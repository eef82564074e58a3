package shapes

// Shapes the blind-labeled corpus (accuracy/) showed, each with look-alikes.

import (
	"context"
	"log"
	"math/rand"
	"net"
	"net/http"
	"time"
)

// appContext embeds context.Context: its Done and Err are the context's.
type appContext struct {
	context.Context
	name string
}

type loader interface {
	Load(ctx context.Context) ([]byte, error)
}

// A select that races the timer against the context consults it on every
// branch, the timer's included: the loop is cancellable, not unbounded.
func reloadEvery(ctx appContext, l loader, every time.Duration) {
	for { // want `retry site: shape=bare bound=none delay=unknown jitter=no ctx=unknown consulted`
		t := time.NewTimer(every)
		select {
		case <-t.C:
			if _, err := l.Load(ctx); err != nil {
				log.Print(err)
				continue
			}
		case <-ctx.Done():
			t.Stop()
		}
		break
	}
}

// The same loop with a ctx.Err check through the embedded context.
func reloadErr(ctx appContext, l loader) {
	for { // want `retry site: shape=bare bound=none delay=fixed jitter=no ctx=unknown consulted`
		if ctx.Err() != nil {
			return
		}
		if _, err := l.Load(ctx); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// Look-alike: the select has no context case, so it consults nothing.
func reloadNoStop(ctx appContext, l loader, stats chan<- int) {
	for { // want `retry site: shape=bare bound=none delay=fixed jitter=no ctx=unknown`
		select {
		case <-time.After(time.Second):
		case stats <- 1:
		}
		if _, err := l.Load(ctx); err == nil {
			return
		}
	}
}

// nextDelay doubles its parameter and scales it by a random factor: the
// result is jittered, though the parameter is the caller's value.
func nextDelay(d time.Duration) time.Duration {
	d *= 2
	f := rand.Float64() + 0.5
	d = time.Duration(float64(d) * f)
	return min(d, time.Minute)
}

// doubleDelay doubles its parameter and nothing more: growing, no jitter.
func doubleDelay(d time.Duration) time.Duration {
	d *= 2
	return min(d, time.Minute)
}

func dialJittered(addr string) net.Conn {
	d := 10 * time.Millisecond
	for { // want `retry site: shape=bare bound=none delay=growing jitter=yes ctx=none remote`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		time.Sleep(d)
		d = nextDelay(d)
	}
}

func dialDoubled(addr string) net.Conn {
	d := 10 * time.Millisecond
	for { // want `retry site: shape=bare bound=none delay=growing jitter=no ctx=none remote`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		time.Sleep(d)
		d = doubleDelay(d)
	}
}

// A timer channel kept in a variable (retry = time.After(d); case <-retry:)
// is a wait, judged by its delay.
func lockLoop(acquire func() error, lost <-chan struct{}, stop <-chan struct{}) {
	var retry <-chan time.Time
	for i := 0; i < 5; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown consulted`
		err := acquire()
		if err == nil {
			return
		}
		retry = time.After(10 * time.Second)
		select {
		case <-retry:
		case <-stop:
			return
		}
	}
}

// A branch that only logs is no decision: after it, leaving by the stop
// channel is not a success exit. The loop re-acquires after success too
// (the lock was lost): a long-lived holder, not a retry of a failed call.
func holdLock(c *http.Client, req *http.Request, stop <-chan struct{}, lost <-chan struct{}) {
	for {
		resp, err := c.Do(req)
		if err != nil {
			log.Print(err)
		} else {
			resp.Body.Close()
		}
		select {
		case <-lost:
			continue
		case <-stop:
			if _, err := c.Do(req); err != nil {
				log.Print(err)
			}
			return
		}
	}
}

// Look-alike: the same loop whose success does leave is a retry.
func acquireOnce(c *http.Client, req *http.Request, stop <-chan struct{}) {
	for { // want `retry site: shape=bare bound=none delay=fixed jitter=no ctx=unknown consulted remote req=\?`
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
			return
		}
		log.Print(err)
		select {
		case <-time.After(time.Second):
		case <-stop:
			return
		}
	}
}

type writeMeta struct{ index uint64 }

func put(c *http.Client, url string) (*writeMeta, error) {
	resp, err := c.Post(url, "application/json", nil)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return &writeMeta{}, nil
}

func growDelay(attempt int) time.Duration {
	if attempt == 0 {
		return 0
	}
	return 100 * time.Millisecond << (attempt - 1)
}

// The success decision is the non-error result (by Go's convention nil
// when the call fails), and a timer re-armed by Reset sets each wait.
func putRetry(ctx context.Context, c *http.Client, url string) (*writeMeta, error) {
	var wm *writeMeta
	var err error
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for attempt := 0; attempt < 4; attempt++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=unknown consulted remote`
		t.Reset(growDelay(attempt))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
		wm, err = put(c, url)
		if wm != nil {
			break
		}
	}
	return wm, err
}

// Look-alike: the result is looked at only to release it; every attempt
// is a new item (a collection loop).
func putAll(c *http.Client, urls []string) {
	for _, u := range urls {
		wm, err := put(c, u)
		if wm != nil {
			log.Print(wm.index)
		}
		if err != nil {
			log.Print(err)
		}
	}
}

// Look-alike: a timer reset in two places is not one delay.
func resetTwice(ctx context.Context, c *http.Client, url string, d time.Duration) {
	t := time.NewTimer(time.Second)
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=unknown jitter=no ctx=unknown consulted remote`
		if _, err := put(c, url); err == nil {
			return
		}
		if i%2 == 0 {
			t.Reset(d)
		} else {
			t.Reset(2 * time.Second)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

var retryOn = map[int]bool{502: true, 503: true, 504: true}

// A set of retryable codes decides: a failure status goes round.
func sendRetryOn(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; ; i++ { // want `retry site: shape=bare bound=counter delay=fixed jitter=no ctx=unknown remote req=\?`
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if !retryOn[resp.StatusCode] {
			return resp, nil
		}
		resp.Body.Close()
		if i >= 3 {
			return nil, err
		}
		time.Sleep(time.Second)
	}
}

func retryable(code int) bool { return code == 429 || code >= 500 }

// A predicate of the code decides, through a copy of it.
func sendRetryable(c *http.Client, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown remote req=\?`
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		code := resp.StatusCode
		if !retryable(code) {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(time.Second)
	}
	return nil, nil
}

func isOK(code int) bool { return code < 300 }

// Look-alike: a predicate read the other way round leaves on failure and
// goes round on success: a poll of a status, not a retry.
func pollOK(c *http.Client, req *http.Request) *http.Response {
	for {
		resp, err := c.Do(req)
		if err != nil {
			return nil
		}
		if isOK(resp.StatusCode) {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp
	}
}

var doneCodes = map[int]bool{200: true, 204: true}

// Look-alike: a set of success codes read the same way is a poll too.
func pollDone(c *http.Client, req *http.Request) *http.Response {
	for {
		resp, err := c.Do(req)
		if err != nil {
			return nil
		}
		if doneCodes[resp.StatusCode] {
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp
	}
}

// A function field the package only sets to time.Sleep is a sleep.
type router struct {
	sleep func(time.Duration)
	pause func(time.Duration)
}

func newRouter() *router {
	return &router{sleep: time.Sleep, pause: time.Sleep}
}

func (r *router) dial(addr string) net.Conn {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=none remote`
		if c, err := net.Dial("tcp", addr); err == nil {
			return c
		}
		r.sleep(100 * time.Millisecond)
	}
	return nil
}

// Look-alike: pause is set to something else too, so its wait is
// unknown: not absent (no "retries at once"), not fixed.
func (r *router) quiet() { r.pause = func(time.Duration) {} }

func (r *router) dialPaused(addr string) net.Conn {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=unknown jitter=no ctx=none remote`
		if c, err := net.Dial("tcp", addr); err == nil {
			return c
		}
		r.pause(100 * time.Millisecond)
	}
	return nil
}

// A client library's own response type with a StatusCode.
type restResponse struct {
	StatusCode int
	Body       string
}

func sendRest(c *http.Client, req *http.Request) (*restResponse, error) {
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return &restResponse{StatusCode: resp.StatusCode}, nil
}

func sendRestRetry(c *http.Client, req *http.Request) (*restResponse, error) {
	for retry := 0; ; retry++ { // want `retry site: shape=bare bound=counter delay=fixed jitter=no ctx=unknown remote`
		resp, err := sendRest(c, req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != 429 {
			return resp, nil
		}
		if retry > 5 {
			return nil, err
		}
		time.Sleep(time.Second)
	}
}

// Look-alike: a struct whose StatusCode is a string is no status.
type textResponse struct{ StatusCode string }

func sendText(c *http.Client, req *http.Request) (*textResponse, error) {
	if _, err := c.Do(req); err != nil {
		return nil, err
	}
	return &textResponse{StatusCode: "ok"}, nil
}

func sendTextLoop(c *http.Client, req *http.Request) *textResponse {
	for retry := 0; retry < 5; retry++ {
		resp, err := sendText(c, req)
		if err != nil {
			return nil
		}
		if resp.StatusCode != "busy" {
			return resp
		}
		time.Sleep(time.Second)
	}
	return nil
}

type cache interface {
	Get(key string, ttl time.Duration) cacheResult
}

type cacheResult struct{ err error }

func (r cacheResult) Error() error { return r.err }

// Look-alike: an interface method taking a duration and returning a
// result is the operation, not a wait: the loop retries at once.
func cachedGet(c cache, key string) cacheResult {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=unknown`
		res := c.Get(key, time.Minute)
		if err := res.Error(); err == nil {
			return res
		}
	}
	return cacheResult{}
}

// A bool channel received in the wait's select is a signal, not work.
func connectKill(addr string, kill <-chan bool) net.Conn {
	for { // want `retry site: shape=bare bound=none delay=fixed jitter=no ctx=none remote`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c
		}
		select {
		case <-time.After(time.Second):
		case intentional := <-kill:
			if intentional {
				return nil
			}
		}
	}
}

// Look-alike: a channel of work items makes a worker loop.
func dialEach(addrs <-chan string) {
	for {
		select {
		case a := <-addrs:
			if _, err := net.Dial("tcp", a); err != nil {
				time.Sleep(time.Second)
				continue
			}
		case <-time.After(time.Minute):
			return
		}
	}
}

// Accepting on your own listener is not a retry (SPEC), whatever delay
// the loop grows on a temporary error.
func serveListener(lis net.Listener, handle func(net.Conn)) error {
	var tempDelay time.Duration
	for {
		c, err := lis.Accept()
		if err != nil {
			if tempDelay == 0 {
				tempDelay = 5 * time.Millisecond
			} else {
				tempDelay *= 2
			}
			time.Sleep(tempDelay)
			continue
		}
		tempDelay = 0
		go handle(c)
	}
}

// A listener of another package (quic-go's, a mux's) is known by its
// shape: Accept beside Addr() net.Addr. Its accept loop is no retry either.
type quicListener interface {
	Accept(ctx context.Context) (net.Conn, error)
	Addr() net.Addr
	Close() error
}

func serveQUIC(ctx context.Context, lis quicListener, handle func(net.Conn)) error {
	failures := 0
	for {
		c, err := lis.Accept(ctx)
		if err != nil {
			failures++
			if failures > 10 {
				return err
			}
			time.Sleep(time.Duration(failures) * time.Second)
			continue
		}
		failures = 0
		go handle(c)
	}
}

// Look-alike: dialing out with the same shape is a retry.
func dialGrow(addr string) net.Conn {
	var delay time.Duration
	for { // want `retry site: shape=bare bound=none delay=growing jitter=no ctx=none remote`
		c, err := net.Dial("tcp", addr)
		if err != nil {
			if delay == 0 {
				delay = 5 * time.Millisecond
			} else {
				delay *= 2
			}
			time.Sleep(delay)
			continue
		}
		return c
	}
}

func dialMode(addr string, tls bool) (net.Conn, error) {
	if tls {
		return net.Dial("tcp", addr+":443")
	}
	return net.Dial("tcp", addr+":80")
}

// Failover written as goto: each jump first moves the call to another
// configuration (TLS, then plain): not a retry.
func connectPrefer(addr string) (net.Conn, error) {
	tls := true
restart:
	c, err := dialMode(addr, tls)
	if err != nil && tls {
		tls = false
		goto restart
	}
	return c, err
}

// Look-alike: the same goto without moving anything is a retry.
func connectAgain(addr string) (net.Conn, error) {
	tries := 0
restart:
	c, err := dialMode(addr, true)
	if err != nil && tries < 3 {
		tries++
		goto restart // want `retry site: shape=goto bound=counter delay=absent jitter=no ctx=none remote`
	}
	return c, err
}

var mixedCodes = map[int]bool{503: true}

func init() { mixedCodes[200] = true }

// Look-alike: the set is changed by an index assignment too, so what it
// holds is not read from its literal: unknown, no decision.
func sendMixed(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if !mixedCodes[resp.StatusCode] {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(time.Second)
	}
	return nil, nil
}

type codeClient struct{ retryOn map[int]bool }

func newCodeClient(codes []int) *codeClient {
	set := map[int]bool{}
	for _, c := range codes {
		set[c] = true
	}
	return &codeClient{retryOn: set}
}

// Look-alike: a set built from the caller's codes: unknown.
func (cc *codeClient) send(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if !cc.retryOn[resp.StatusCode] {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(time.Second)
	}
	return nil, nil
}

// A local closure assigned once is followed: its call is remote.
func pingOnce(c *http.Client, url string) error {
	call := func() error {
		resp, err := c.Get(url)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown remote`
		if err := call(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

// Look-alike: the closure is reassigned, so which one runs is unknown:
// not remote.
func pingSwitch(c *http.Client, url string, dry bool) error {
	call := func() error {
		resp, err := c.Get(url)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	if dry {
		call = func() error { return nil }
	}
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown`
		if err := call(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

// Look-alike: the channel holds a timer or the caller's events, channels
// of time.Time both: a receive from it waits, for how long is not seen
// (unknown, not absent).
func lockOrEvent(acquire func() error, events <-chan time.Time, stop <-chan struct{}) {
	retry := time.After(time.Second)
	for i := 0; i < 5; i++ { // want `retry site: shape=counted bound=counter delay=unknown jitter=no ctx=unknown consulted attempts=5`
		if err := acquire(); err == nil {
			return
		}
		select {
		case <-retry:
		case <-stop:
			return
		}
		retry = events
	}
}
