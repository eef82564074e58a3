package budget

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// testTimeout bounds every test client, so that a bug cannot hang the suite.
const testTimeout = 2 * time.Minute

// received is what the test server saw of one request.
type received struct {
	method string
	header http.Header
	body   string
	at     time.Time
}

// server is a loopback HTTP server that answers with a scripted handler and
// records every request it receives.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []received
}

// newServer starts a server whose handler is called with the 1-based number
// of the request.
func newServer(t *testing.T, handle func(n int, w http.ResponseWriter, r *http.Request)) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.reqs = append(s.reqs, received{r.Method, r.Header.Clone(), string(body), time.Now()})
		n := len(s.reqs)
		s.mu.Unlock()
		handle(n, w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) received() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.reqs...)
}

// failFirst answers the first n requests with code, then 200 "ok".
func failFirst(n, code int) func(int, http.ResponseWriter, *http.Request) {
	return func(i int, w http.ResponseWriter, _ *http.Request) {
		if i <= n {
			http.Error(w, "try again", code)
			return
		}
		io.WriteString(w, "ok")
	}
}

// hangUp closes the connection without a response: a transport error.
func hangUp(_ int, w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

func newRequest(t *testing.T, ctx context.Context, method, url, body string, header ...string) *http.Request {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return req
}

func readBody(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTransportRetriesIdempotentMethods(t *testing.T) {
	for _, method := range []string{"GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"} {
		srv := newServer(t, failFirst(2, http.StatusServiceUnavailable))
		tr := &Transport{Backoff: quick, Budget: new(TokenBucket)}
		client := &http.Client{Transport: tr, Timeout: testTimeout}
		resp, err := client.Do(newRequest(t, context.Background(), method, srv.URL, ""))
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		readBody(t, resp)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: status %d, want 200", method, resp.StatusCode)
		}
		got := srv.received()
		if len(got) != 3 {
			t.Fatalf("%s: server received %d requests, want 3", method, len(got))
		}
		for i, r := range got {
			want := ""
			if i > 0 {
				want = strconv.Itoa(i)
			}
			if h := r.header.Get(AttemptHeader); h != want {
				t.Errorf("%s: request %d %s = %q, want %q", method, i+1, AttemptHeader, h, want)
			}
			// http.Client.Timeout is a deadline the header passes on.
			if ms, err := strconv.Atoi(r.header.Get(TimeoutHeader)); err != nil || ms <= 0 || ms > int(testTimeout/time.Millisecond) {
				t.Errorf("%s: %s = %q, want the client's remaining time", method, TimeoutHeader, r.header.Get(TimeoutHeader))
			}
		}
		host := strings.TrimPrefix(srv.URL, "http://")
		s := tr.budgetFor(host).Stats()
		if s.Requests != 3 || s.Failures != 2 || s.RetriesAllowed != 2 {
			t.Fatalf("%s: host budget Stats = %+v", method, s)
		}
	}
}

func TestTransportNeverDuplicatesWritesWithoutKey(t *testing.T) {
	handlers := map[string]func(int, http.ResponseWriter, *http.Request){
		"503":        failFirst(100, http.StatusServiceUnavailable),
		"500":        failFirst(100, http.StatusInternalServerError),
		"429":        failFirst(100, http.StatusTooManyRequests),
		"hang up":    hangUp,
		"stall 50ms": func(int, http.ResponseWriter, *http.Request) { time.Sleep(50 * time.Millisecond) },
	}
	for name, h := range handlers {
		for _, method := range []string{"POST", "PATCH", "LOCK"} {
			srv := newServer(t, h)
			client := &http.Client{Transport: &Transport{Backoff: quick, Attempts: 10}, Timeout: testTimeout}
			resp, err := client.Do(newRequest(t, context.Background(), method, srv.URL, "charge=1"))
			if err == nil {
				readBody(t, resp)
			}
			if got := len(srv.received()); got != 1 {
				t.Errorf("%s %s without a key: server received %d requests, want exactly 1", name, method, got)
			}
		}
	}
}

func TestTransportRetriesWritesWithKey(t *testing.T) {
	for _, header := range []string{"Idempotency-Key", "X-Idempotency-Key", "X-Request-Id"} {
		for _, fail := range []func(int, http.ResponseWriter, *http.Request){
			failFirst(2, http.StatusBadGateway),
			func(n int, w http.ResponseWriter, r *http.Request) {
				if n <= 2 {
					hangUp(n, w, r)
					return
				}
				io.WriteString(w, "ok")
			},
		} {
			srv := newServer(t, fail)
			tr := &Transport{Backoff: quick, Budget: new(TokenBucket)}
			if header == "X-Request-Id" {
				tr.KeyHeader = header
			}
			client := &http.Client{Transport: tr, Timeout: testTimeout}
			req := newRequest(t, context.Background(), "POST", srv.URL, `{"amount":10}`, header, "key-123")
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s: %v", header, err)
			}
			if body := readBody(t, resp); body != "ok" {
				t.Fatalf("%s: body %q", header, body)
			}
			got := srv.received()
			if len(got) != 3 {
				t.Fatalf("%s: server received %d requests, want 3", header, len(got))
			}
			for i, r := range got {
				if r.header.Get(header) != "key-123" {
					t.Errorf("%s: attempt %d key %q, want the same key on every attempt", header, i+1, r.header.Get(header))
				}
				if r.body != `{"amount":10}` {
					t.Errorf("%s: attempt %d body %q, want the rewound body", header, i+1, r.body)
				}
			}
		}
	}
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestTransportMintKeys(t *testing.T) {
	srv := newServer(t, failFirst(2, http.StatusServiceUnavailable))
	client := &http.Client{Transport: &Transport{Backoff: quick, Budget: new(TokenBucket), MintKeys: true}, Timeout: testTimeout}
	req := newRequest(t, context.Background(), "PATCH", srv.URL, "x=1")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	readBody(t, resp)
	got := srv.received()
	if len(got) != 3 {
		t.Fatalf("server received %d requests, want 3", len(got))
	}
	key := got[0].header.Get(IdempotencyKeyHeader)
	if !uuidV4.MatchString(key) {
		t.Fatalf("minted key %q is not a UUIDv4", key)
	}
	for i, r := range got {
		if r.header.Get(IdempotencyKeyHeader) != key || r.body != "x=1" {
			t.Fatalf("attempt %d: key %q body %q; want key %q body x=1", i+1, r.header.Get(IdempotencyKeyHeader), r.body, key)
		}
	}
	if req.Header.Get(IdempotencyKeyHeader) != "" {
		t.Fatal("the caller's request was given the minted key")
	}
	// A second logical request gets a new key.
	resp, err = client.Do(newRequest(t, context.Background(), "POST", srv.URL, "x=2"))
	if err != nil {
		t.Fatal(err)
	}
	readBody(t, resp)
	got = srv.received()
	if k := got[len(got)-1].header.Get(IdempotencyKeyHeader); k == key || !uuidV4.MatchString(k) {
		t.Fatalf("second request key %q, want a new UUIDv4", k)
	}
}

// onceReader is a body that cannot be rewound.
type onceReader struct{ io.Reader }

func TestTransportRefusesBodyItCannotRewind(t *testing.T) {
	srv := newServer(t, failFirst(100, http.StatusServiceUnavailable))
	client := &http.Client{Transport: &Transport{Backoff: quick}, Timeout: testTimeout}
	req, err := http.NewRequest("PUT", srv.URL, onceReader{strings.NewReader("data")})
	if err != nil {
		t.Fatal(err)
	}
	if req.GetBody != nil {
		t.Fatal("test setup: GetBody is set")
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	readBody(t, resp)
	if resp.StatusCode != 503 {
		t.Fatalf("status %d, want the failed response 503", resp.StatusCode)
	}
	if got := srv.received(); len(got) != 1 || got[0].body != "data" {
		t.Fatalf("server received %v, want one request with the body", got)
	}
}

func TestTransportRetryAfterClamped(t *testing.T) {
	for _, ra := range []string{"3600", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)} {
		for _, code := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
			srv := newServer(t, func(n int, w http.ResponseWriter, _ *http.Request) {
				if n == 1 {
					w.Header().Set("Retry-After", ra)
					w.WriteHeader(code)
					return
				}
				io.WriteString(w, "ok")
			})
			client := &http.Client{Transport: &Transport{Backoff: quick, MaxRetryAfter: 50 * time.Millisecond}, Timeout: testTimeout}
			start := time.Now()
			resp, err := client.Do(newRequest(t, context.Background(), "GET", srv.URL, ""))
			if err != nil {
				t.Fatal(err)
			}
			readBody(t, resp)
			got := srv.received()
			if len(got) != 2 {
				t.Fatalf("Retry-After %q: %d requests, want 2", ra, len(got))
			}
			if gap := got[1].at.Sub(got[0].at); gap < 45*time.Millisecond {
				t.Errorf("Retry-After %q on %d: retried after %v, want the clamp 50ms", ra, code, gap)
			}
			if el := time.Since(start); el > 5*time.Second {
				t.Errorf("Retry-After %q: took %v, the clamp was not applied", ra, el)
			}
		}
	}
}

func TestTransportRetryAfterHonoured(t *testing.T) {
	srv := newServer(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, "ok")
	})
	client := &http.Client{Transport: &Transport{Backoff: quick}, Timeout: testTimeout}
	resp, err := client.Do(newRequest(t, context.Background(), "GET", srv.URL, ""))
	if err != nil {
		t.Fatal(err)
	}
	readBody(t, resp)
	got := srv.received()
	if len(got) != 2 {
		t.Fatalf("%d requests, want 2", len(got))
	}
	if gap := got[1].at.Sub(got[0].at); gap < 950*time.Millisecond {
		t.Fatalf("retried after %v, want Retry-After: 1 honoured", gap)
	}
}

func TestTransportRetryAfterIgnoredOnOtherStatus(t *testing.T) {
	srv := newServer(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 1 {
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		io.WriteString(w, "ok")
	})
	client := &http.Client{Transport: &Transport{Backoff: quick}, Timeout: testTimeout}
	start := time.Now()
	resp, err := client.Do(newRequest(t, context.Background(), "GET", srv.URL, ""))
	if err != nil {
		t.Fatal(err)
	}
	readBody(t, resp)
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("waited %v for a Retry-After on 502", el)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	tests := []struct {
		v    string
		want time.Duration
		ok   bool
	}{
		{"5", 5 * time.Second, true},
		{" 120 ", 2 * time.Minute, true},
		{"0", 0, true},
		{"99999999999999999999", math.MaxInt64, true},
		{"9223372037", math.MaxInt64, true},
		{"-1", 0, false},
		{"+1", 0, false},
		{"1.5", 0, false},
		{"", 0, false},
		{"soon", 0, false},
		{"Mon, 30 Nov 2026 01:00:10 GMT", 10 * time.Second, true},
		{"Monday, 30-Nov-26 01:01:00 GMT", time.Minute, true},
		{"Mon Nov 30 01:00:03 2026", 3 * time.Second, true},
		{"Sun, 29 Nov 2026 01:00:00 GMT", 0, true},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.v, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.v, got, ok, tt.want, tt.ok)
		}
	}
}

func TestTransportCancelStopsRetries(t *testing.T) {
	first := make(chan struct{})
	var once sync.Once
	srv := newServer(t, func(int, http.ResponseWriter, *http.Request) {})
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		srv.mu.Lock()
		srv.reqs = append(srv.reqs, received{at: time.Now()})
		srv.mu.Unlock()
		once.Do(func() { close(first) })
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-first
		time.Sleep(20 * time.Millisecond) // let the client start its wait
		cancel()
	}()
	// The wait (1m) fits in the client's deadline (2m), so it is started.
	client := &http.Client{Transport: &Transport{Backoff: Backoff{Base: time.Minute, Cap: time.Minute, Jitter: NoJitter}}, Timeout: testTimeout}
	start := time.Now()
	resp, err := client.Do(newRequest(t, ctx, "GET", srv.URL, ""))
	if err == nil {
		readBody(t, resp)
		t.Fatal("no error after cancellation")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("cancel took %v to stop the wait", el)
	}
	time.Sleep(20 * time.Millisecond)
	if got := len(srv.received()); got != 1 {
		t.Fatalf("server received %d requests, want 1", got)
	}
}

func TestTransportDeadline(t *testing.T) {
	srv := newServer(t, failFirst(100, http.StatusServiceUnavailable))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := &http.Client{Transport: &Transport{Backoff: Backoff{Base: time.Minute, Cap: time.Minute, Jitter: NoJitter}}, Timeout: testTimeout}
	start := time.Now()
	resp, err := client.Do(newRequest(t, ctx, "GET", srv.URL, ""))
	if err != nil {
		t.Fatal(err)
	}
	readBody(t, resp)
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("waited %v although the wait would pass the deadline", el)
	}
	if resp.StatusCode != 503 {
		t.Fatalf("status %d, want the last response 503", resp.StatusCode)
	}
	got := srv.received()
	if len(got) != 1 {
		t.Fatalf("server received %d requests, want 1", len(got))
	}
	ms, err := strconv.Atoi(got[0].header.Get(TimeoutHeader))
	if err != nil || ms <= 20000 || ms > 30000 {
		t.Fatalf("%s = %q, want the remaining deadline in ms", TimeoutHeader, got[0].header.Get(TimeoutHeader))
	}
}

func TestTransportStalledServer(t *testing.T) {
	srv := newServer(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		select { // stall until the client gives up, bounded
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	client := &http.Client{Transport: &Transport{Backoff: quick}, Timeout: testTimeout}
	start := time.Now()
	resp, err := client.Do(newRequest(t, ctx, "GET", srv.URL, ""))
	if err == nil {
		readBody(t, resp)
		t.Fatal("a stalled request succeeded")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want context.DeadlineExceeded", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("took %v", el)
	}
	time.Sleep(20 * time.Millisecond)
	if got := len(srv.received()); got != 1 {
		t.Fatalf("server received %d requests, want 1: no retry after the deadline", got)
	}
}

func TestTransportBudgetPerHost(t *testing.T) {
	srvA := newServer(t, failFirst(1000, http.StatusServiceUnavailable))
	srvB := newServer(t, failFirst(1, http.StatusServiceUnavailable))
	tr := &Transport{Backoff: quick, Attempts: 2}
	hostA := strings.TrimPrefix(srvA.URL, "http://")
	a := tr.budgetFor(hostA).(*Adaptive)
	a.Allow() // host A's budget has earned nothing: this spends its floor
	client := &http.Client{Transport: tr, Timeout: testTimeout}
	resp, err := client.Do(newRequest(t, context.Background(), "GET", srvA.URL, ""))
	if err != nil {
		t.Fatal(err)
	}
	readBody(t, resp)
	if got := len(srvA.received()); got != 1 {
		t.Fatalf("host A received %d requests with its budget spent, want 1", got)
	}
	resp, err = client.Do(newRequest(t, context.Background(), "GET", srvB.URL, ""))
	if err != nil {
		t.Fatal(err)
	}
	readBody(t, resp)
	if got := len(srvB.received()); got != 2 {
		t.Fatalf("host B received %d requests, want 2: its budget is its own", got)
	}
	if tr.budgetFor(hostA) != tr.budgetFor(hostA) || tr.budgetFor(hostA) == tr.budgetFor("other:1") {
		t.Fatal("BudgetFor does not keep one budget per host")
	}
	shared := new(TokenBucket)
	tr2 := &Transport{Budget: shared}
	if tr2.budgetFor("a") != RetryBudget(shared) || tr2.budgetFor("b") != RetryBudget(shared) {
		t.Fatal("BudgetFor ignores Budget")
	}
}

// trackedBody counts what is read from it and whether it was closed.
type trackedBody struct {
	r      io.Reader
	read   int64
	closed bool
}

func (b *trackedBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read += int64(n)
	return n, err
}
func (b *trackedBody) Close() error { b.closed = true; return nil }

// fakeRT answers from a script without a network.
type fakeRT struct {
	reqs   []*http.Request
	bodies []*trackedBody
	answer func(n int, r *http.Request) (*http.Response, error)
}

func (f *fakeRT) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	f.reqs = append(f.reqs, r)
	resp, err := f.answer(len(f.reqs), r)
	if resp != nil {
		tb := &trackedBody{r: resp.Body}
		resp.Body = tb
		f.bodies = append(f.bodies, tb)
	}
	return resp, err
}

func status(code int, body string) *http.Response {
	return &http.Response{StatusCode: code, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body))}
}

func TestTransportDrainsBoundedAndCloses(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	for _, tt := range []struct {
		maxDrain int64
		want     int64
	}{{0, DefaultMaxDrain}, {10, 10}, {-1, 0}} {
		rt := &fakeRT{answer: func(n int, _ *http.Request) (*http.Response, error) {
			if n < 3 {
				return status(503, big), nil
			}
			return status(200, "ok"), nil
		}}
		tr := &Transport{Base: rt, Backoff: quick, Budget: new(TokenBucket), MaxDrain: tt.maxDrain}
		req := newRequest(t, context.Background(), "GET", "http://example.test/", "")
		resp, err := tr.RoundTrip(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("RoundTrip = %v, %v", resp, err)
		}
		for i, b := range rt.bodies[:2] {
			if !b.closed || b.read != tt.want {
				t.Errorf("MaxDrain %d: failed response %d closed=%v read=%d; want closed, %d read", tt.maxDrain, i+1, b.closed, b.read, tt.want)
			}
		}
		if rt.bodies[2].closed {
			t.Error("the returned response was closed")
		}
	}
}

func TestTransportDoesNotMutateRequest(t *testing.T) {
	rt := &fakeRT{answer: func(n int, _ *http.Request) (*http.Response, error) {
		if n < 3 {
			return status(503, ""), nil
		}
		return status(200, "ok"), nil
	}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	req := newRequest(t, ctx, "POST", "http://example.test/pay", "amount=1", "Idempotency-Key", "k1", "X-Trace", "t")
	before := req.Header.Clone()
	tr := &Transport{Base: rt, Backoff: quick, AttemptHeader: "X-Try", TimeoutHeader: "X-Budget-Ms", Budget: new(TokenBucket)}
	resp, err := tr.RoundTrip(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("RoundTrip = %v, %v", resp, err)
	}
	if len(req.Header) != len(before) {
		t.Fatalf("caller's headers changed: %v, was %v", req.Header, before)
	}
	for k, v := range before {
		if strings.Join(req.Header[k], ",") != strings.Join(v, ",") {
			t.Fatalf("caller's header %s changed", k)
		}
	}
	if len(rt.reqs) != 3 {
		t.Fatalf("%d attempts, want 3", len(rt.reqs))
	}
	for i, r := range rt.reqs {
		if r == req {
			t.Fatal("the caller's request was sent as is")
		}
		if i > 0 && r.Header.Get("X-Try") != strconv.Itoa(i) {
			t.Errorf("attempt %d X-Try = %q", i+1, r.Header.Get("X-Try"))
		}
		if r.Header.Get(AttemptHeader) != "" {
			t.Error("default attempt header sent despite the override")
		}
		if r.Header.Get("X-Budget-Ms") == "" || r.Header.Get(TimeoutHeader) != "" {
			t.Error("timeout header override not applied")
		}
	}
	// "-" turns the headers off.
	rt.reqs = nil
	tr = &Transport{Base: rt, Backoff: quick, AttemptHeader: "-", TimeoutHeader: "-"}
	rt.answer = func(n int, _ *http.Request) (*http.Response, error) {
		if n < 2 {
			return status(503, ""), nil
		}
		return status(200, ""), nil
	}
	if _, err := tr.RoundTrip(newRequest(t, ctx, "GET", "http://example.test/", "")); err != nil {
		t.Fatal(err)
	}
	for _, r := range rt.reqs {
		if r.Header.Get(AttemptHeader) != "" || r.Header.Get(TimeoutHeader) != "" {
			t.Fatal(`headers sent although turned off with "-"`)
		}
	}
}

func TestTransportAttemptsAndStatuses(t *testing.T) {
	always := func(code int) func(int, *http.Request) (*http.Response, error) {
		return func(int, *http.Request) (*http.Response, error) { return status(code, ""), nil }
	}
	tests := []struct {
		name     string
		tr       func() *Transport
		code     int
		attempts int
	}{
		{"default attempts", func() *Transport { return &Transport{} }, 503, 3},
		{"attempts above ceiling", func() *Transport { return &Transport{Attempts: 50} }, 503, 10},
		{"one attempt", func() *Transport { return &Transport{Attempts: 1} }, 503, 1},
		{"404 is not retried", func() *Transport { return &Transport{} }, 404, 1},
		{"501 is not retried", func() *Transport { return &Transport{} }, 501, 1},
		{"504 is retried", func() *Transport { return &Transport{} }, 504, 3},
		{"custom status", func() *Transport { return &Transport{RetryStatus: func(c int) bool { return c == 409 }} }, 409, 3},
		{"custom status excludes 503", func() *Transport { return &Transport{RetryStatus: func(c int) bool { return c == 409 }} }, 503, 1},
	}
	for _, tt := range tests {
		rt := &fakeRT{answer: always(tt.code)}
		tr := tt.tr()
		tr.Base, tr.Backoff, tr.Budget = rt, quick, new(TokenBucket)
		resp, err := tr.RoundTrip(newRequest(t, context.Background(), "GET", "http://example.test/", ""))
		if err != nil || resp.StatusCode != tt.code {
			t.Fatalf("%s: RoundTrip = %v, %v", tt.name, resp, err)
		}
		if len(rt.reqs) != tt.attempts {
			t.Errorf("%s: %d attempts, want %d", tt.name, len(rt.reqs), tt.attempts)
		}
	}
}

func TestTransportGetBodyFailure(t *testing.T) {
	rt := &fakeRT{answer: func(int, *http.Request) (*http.Response, error) { return status(503, ""), nil }}
	req := newRequest(t, context.Background(), "PUT", "http://example.test/", "data")
	req.GetBody = func() (io.ReadCloser, error) { return nil, errors.New("gone") }
	resp, err := (&Transport{Base: rt, Backoff: quick}).RoundTrip(req)
	if err != nil || resp.StatusCode != 503 || len(rt.reqs) != 1 {
		t.Fatalf("RoundTrip = %v, %v after %d attempts; want the 503 after 1", resp, err, len(rt.reqs))
	}
}

func TestTransportTransportErrorReturned(t *testing.T) {
	errNet := errors.New("connection reset")
	rt := &fakeRT{answer: func(int, *http.Request) (*http.Response, error) { return nil, errNet }}
	tr := &Transport{Base: rt, Backoff: quick, Budget: new(TokenBucket)}
	resp, err := tr.RoundTrip(newRequest(t, context.Background(), "GET", "http://example.test/", ""))
	if resp != nil || err != errNet || len(rt.reqs) != 3 {
		t.Fatalf("RoundTrip = %v, %v after %d attempts; want the error after 3", resp, err, len(rt.reqs))
	}
	for _, r := range rt.reqs {
		if h := r.Header.Get(TimeoutHeader); h != "" {
			t.Fatalf("%s = %q sent without a deadline", TimeoutHeader, h)
		}
	}
	if s := tr.budgetFor("example.test").Stats(); s.Failures != 3 {
		t.Fatalf("Stats = %+v", s)
	}
}

func TestTransportNilURLPassesThrough(t *testing.T) {
	rt := &fakeRT{answer: func(int, *http.Request) (*http.Response, error) { return status(200, ""), nil }}
	req := &http.Request{Method: "GET", Header: http.Header{}}
	if _, err := (&Transport{Base: rt}).RoundTrip(req); err != nil || len(rt.reqs) != 1 {
		t.Fatal(err)
	}
}

func TestTransportNilHeader(t *testing.T) {
	rt := &fakeRT{answer: func(n int, _ *http.Request) (*http.Response, error) {
		if n < 2 {
			return status(503, ""), nil
		}
		return status(200, ""), nil
	}}
	u, _ := url.Parse("http://example.test/")
	req := &http.Request{Method: "GET", URL: u}
	resp, err := (&Transport{Base: rt, Backoff: quick}).RoundTrip(req)
	if err != nil || resp.StatusCode != 200 || len(rt.reqs) != 2 {
		t.Fatalf("RoundTrip = %v, %v after %d attempts", resp, err, len(rt.reqs))
	}
	if req.Header != nil {
		t.Fatal("the caller's request was given a header map")
	}
}

func TestIsIdempotent(t *testing.T) {
	for m, want := range map[string]bool{
		"": true, "GET": true, "HEAD": true, "OPTIONS": true, "TRACE": true, "PUT": true, "DELETE": true,
		"POST": false, "PATCH": false, "CONNECT": false, "get": false,
	} {
		if got := isIdempotent(m); got != want {
			t.Errorf("isIdempotent(%q) = %v, want %v", m, got, want)
		}
	}
}

func TestNewIdempotencyKey(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		k := NewIdempotencyKey()
		if !uuidV4.MatchString(k) {
			t.Fatalf("key %q is not a UUIDv4", k)
		}
		if seen[k] {
			t.Fatalf("key %q repeated", k)
		}
		seen[k] = true
	}
}
