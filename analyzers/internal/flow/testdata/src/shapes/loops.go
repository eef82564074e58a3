// Package shapes holds the shapes the v3 site definition sorts: each
// retried operation carries a want naming its site kind; every other
// loop is a look-alike that must stay silent.
package shapes

import (
	"context"
	"errors"
	"log"
	"net/http"
	"time"
)

var errBusy = errors.New("busy")

func op(ctx context.Context) error             { return nil }
func get(ctx context.Context) (string, error)  { return "", nil }
func send(ctx context.Context, s string) error { return nil }
func isRetryable(err error) bool               { return errors.Is(err, errBusy) }

// tryLock is an attempt that turns its operation's failure into false.
func tryLock() bool {
	if err := op(context.Background()); err != nil {
		log.Print(err)
		return false
	}
	return true
}

// --- retry sites: failure goes round to the same operation, success leaves

func counted(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = op(ctx) // want `retry site`
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func countedBreak(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil { // want `retry site`
			break
		}
	}
	return err
}

func bare(ctx context.Context) (string, error) {
	for {
		s, err := get(ctx) // want `retry site`
		if err != nil {
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(time.Second):
			}
			continue
		}
		return s, nil
	}
}

func flag(ctx context.Context) {
	done := false
	for !done {
		if err := op(ctx); err == nil { // want `retry site`
			done = true
		} else {
			time.Sleep(time.Second)
		}
	}
}

func gotoRetry(ctx context.Context) error {
	n := 0
retry:
	err := op(ctx) // want `retry site`
	if err != nil {
		if n < 3 {
			n++
			time.Sleep(time.Second)
			goto retry
		}
		return err
	}
	return nil
}

func gotoOnStatus(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	n := 0
again:
	resp, err := c.Do(req) // want `retry site`
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == 503 && n < 5 {
		resp.Body.Close()
		n++
		goto again
	}
	return resp, nil
}

func classified(ctx context.Context) error {
	for {
		err := op(ctx) // want `retry site`
		if err == nil {
			return nil
		}
		if !isRetryable(err) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func boolOK(ctx context.Context) {
	for i := 0; i < 10; i++ {
		if tryLock() { // want `retry site`
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func condLoop(ctx context.Context) error {
	err := op(ctx) // the first try, before the loop
	for err != nil {
		time.Sleep(time.Second)
		err = op(ctx) // want `retry site`
	}
	return nil
}

func statusLoop(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.Do(req) // want `retry site`
		if err != nil {
			return nil, err
		}
		if resp.StatusCode < 500 {
			return resp, nil
		}
		resp.Body.Close()
	}
	return nil, errBusy
}

func timerPaced(ctx context.Context) error {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			if err := op(ctx); err != nil { // want `retry site`
				t.Reset(time.Second)
				continue
			}
			return nil
		}
	}
}

// --- consume loops: success goes round; failure waits, then goes round

func consume(ctx context.Context) {
	for {
		s, err := get(ctx) // want `consume site`
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if err := send(ctx, s); err != nil {
			return
		}
	}
}

// --- look-alikes

// A collection loop: each lap sends another element.
func collection(ctx context.Context, items []string) error {
	for _, it := range items {
		if err := send(ctx, it); err == nil {
			return nil
		}
	}
	return errBusy
}

// Failover: each lap targets the next address.
func failover(ctx context.Context, addrs []string) error {
	for i := 0; i < len(addrs); i++ {
		if err := send(ctx, addrs[i]); err == nil {
			return nil
		}
	}
	return errBusy
}

// Periodic work: the outcome does not decide the repeat.
func periodic(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := op(ctx); err != nil {
			continue
		}
	}
}

// Periodic with a sleep on both outcomes.
func periodicSleep(ctx context.Context) {
	for ctx.Err() == nil {
		if err := op(ctx); err != nil {
			println("failed")
		}
		time.Sleep(time.Minute)
	}
}

// Do it three times, skipping failures.
func threeTimes(ctx context.Context) {
	for i := 0; i < 3; i++ {
		if err := op(ctx); err != nil {
			continue
		}
		println("ok")
	}
}

// A read loop: success goes round, failure leaves.
func read(ctx context.Context) error {
	for {
		s, err := get(ctx)
		if err != nil {
			return err
		}
		_ = s
	}
}

// A scan loop that skips a bad item.
func scan(ctx context.Context, next func() (string, bool)) int {
	n := 0
	for {
		s, ok := next()
		if !ok {
			return n
		}
		if err := send(ctx, s); err != nil {
			continue
		}
		n++
	}
}

// A channel consumer handing each message on.
func drain(ctx context.Context, ch <-chan string) {
	for s := range ch {
		if err := send(ctx, s); err != nil {
			continue
		}
	}
}

// A map range.
func each(ctx context.Context, m map[string]string) error {
	for k := range m {
		if err := send(ctx, k); err == nil {
			return nil
		}
	}
	return nil
}

// Not a loop at all.
func once(ctx context.Context) error {
	if err := op(ctx); err != nil {
		return err
	}
	return nil
}

// The error lives in memory when a closure captures it.
func captured(ctx context.Context) (err error) {
	defer func() {
		if err != nil {
			println(err.Error())
		}
	}()
	for i := 0; i < 3; i++ {
		err = op(ctx) // want `retry site`
		if err == nil {
			return nil
		}
	}
	return err
}

// A failure re-arms the timer the loop waits on; success does not: the
// error branch of a consume loop.
func rearm(ctx context.Context, events <-chan string) {
	t := time.NewTimer(0)
	for {
		select {
		case <-t.C:
			if err := op(ctx); err != nil { // want `consume site`
				t.Reset(time.Minute)
				continue
			}
		case s := <-events:
			_ = s
		case <-ctx.Done():
			return
		}
	}
}

// Both outcomes re-arm the same interval: periodic.
func rearmPeriodic(ctx context.Context, every time.Duration) {
	t := time.NewTimer(every)
	for {
		select {
		case <-t.C:
			if err := op(ctx); err != nil {
				t.Reset(every)
				continue
			}
			t.Reset(every)
		case <-ctx.Done():
			return
		}
	}
}

type timeoutErr interface{ Timeout() bool }

// A read under a deadline goes on after a timeout; its success goes round
// too: a read loop, whatever the classifier sends round.
func readDeadline(ctx context.Context) error {
	for {
		s, err := get(ctx)
		var te timeoutErr
		if errors.As(err, &te) && te.Timeout() {
			continue
		}
		if err != nil {
			return err
		}
		_ = s
	}
}

// Only a classifier decides, and what it says of a success is not known
// here: silent.
func classifierOnly(ctx context.Context, keep func(error) bool) error {
	for i := 0; i < 3; i++ {
		err := op(ctx)
		if !keep(err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return nil
}

// --- recursion: the call graph's cycle

func recursive(ctx context.Context, attempts int) error {
	err := op(ctx) // want `retry site`
	if err != nil && attempts > 1 {
		time.Sleep(time.Second)
		return recursive(ctx, attempts-1)
	}
	return err
}

func closureRecursion(ctx context.Context) error {
	n := 0
	var try func() error
	try = func() error {
		if err := op(ctx); err != nil { // want `retry site`
			if n++; n < 3 {
				return try()
			}
			return err
		}
		return nil
	}
	return try()
}

type node struct {
	left, right *node
	name        string
}

// A walk: each call takes another node.
func walk(ctx context.Context, n *node) error {
	if n == nil {
		return nil
	}
	if err := send(ctx, n.name); err != nil {
		return walk(ctx, n.left)
	}
	return walk(ctx, n.right)
}

// Both outcomes wait, but a failure chooses a growing delay and a success
// the interval: the error branch of a consume loop.
func refreshBackoff(ctx context.Context, every time.Duration) {
	wait, retry := every, time.Second
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
			if err := op(ctx); err != nil { // want `consume site`
				wait = retry
				retry *= 2
				continue
			}
			wait, retry = every, time.Second
		}
	}
}

// Both outcomes wait the same interval.
func refreshEvery(ctx context.Context, every time.Duration) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
			if err := op(ctx); err != nil {
				continue
			}
		}
	}
}

type completed struct{ flags int }

func (c completed) isPipe() bool { return c.flags&1 != 0 }

// A search over a collection with a predicate: each lap asks another
// element.
func anyPipe(multi ...completed) bool {
	for _, c := range multi {
		if c.isPipe() {
			return true
		}
	}
	return false
}

type pipe struct{ flags int }

func (p *pipe) ready() bool { return p.flags&1 != 0 }

// The same search through a pointer method: the loop variable lives in
// memory, and what is stored in it advances.
func anyReady(ps []pipe) bool {
	for _, p := range ps {
		if p.ready() {
			return true
		}
	}
	return false
}

func readInto(ctx context.Context, buf []byte) (int, error) { return len(buf), nil }

// A read loop that stops once enough has arrived: a count compared with a
// constant in the status range is not a status test.
func readUntil(ctx context.Context, buf []byte) error {
	total := 0
	for {
		n, err := readInto(ctx, buf)
		if err != nil {
			return err
		}
		total += n
		if total >= 512 {
			return nil
		}
	}
}

// A test repeating a call it expects to fail: success panics or ends the
// test, so no success leaves the loop.
func expectFailure(ctx context.Context) {
	for i := 0; i < 3; i++ {
		if err := op(ctx); err == nil {
			panic("want a failure")
		}
		time.Sleep(time.Millisecond)
	}
}

type fataler interface{ Fatal(args ...any) }

func expectFailureFatal(ctx context.Context, t fataler) {
	for i := 0; i < 3; i++ {
		if err := op(ctx); err == nil {
			log.Fatal("want a failure")
		}
		time.Sleep(time.Millisecond)
	}
}

// Not a look-alike: giving up panics, success returns; a retry all the same.
func retryThenPanic(ctx context.Context) {
	for i := 0; ; i++ {
		err := op(ctx) // want `retry site`
		if err == nil {
			return
		}
		if i == 3 {
			panic(err)
		}
		time.Sleep(time.Second)
	}
}

// Look-alike: each lap asks the next predicate of a list whether to
// retry; the function called advances.
func anyPredicate(conds []func(error) bool, err error) bool {
	for _, cond := range conds {
		if cond(err) {
			return true
		}
	}
	return false
}

type header struct {
	name   string
	custom func(string) (int, bool)
}

// Look-alike: each lap parses with the next header kind's own parser.
func parseAny(kinds []header, v string) int {
	for _, k := range kinds {
		if n, ok := k.custom(v); ok {
			return n
		}
	}
	return 0
}
