package a

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"sync"
	"time"
)

// A false ok: the call succeeds, but what it hands back is unusable, and
// the loop asks again at once.

// Doer is an HTTP client's shape: whatever implements it sends the
// request.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

type tokens struct {
	mu       sync.Mutex
	rejected string
	cached   string
}

func (t *tokens) exchange(ctx context.Context, c Doer) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://127.0.0.1/token", nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return resp.Header.Get("X-Token"), nil
}

// The server handed back the token just rejected: exchange again.
func (t *tokens) refresh(ctx context.Context, c Doer) (string, error) {
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop retries at once`
		token, err := t.exchange(ctx, c)
		if err != nil {
			return "", err
		}
		t.mu.Lock()
		if token != t.rejected {
			t.cached = token
			t.mu.Unlock()
			return token, nil
		}
		t.mu.Unlock()
		if err := ctx.Err(); err != nil {
			return "", err
		}
	}
	return "", errors.New("rejected")
}

// Look-alikes.

// A poll waits between its calls: waiting for a condition.
func (t *tokens) awaitFresh(ctx context.Context, c Doer) (string, error) {
	for attempt := 0; attempt < 30; attempt++ {
		token, err := t.exchange(ctx, c)
		if err != nil {
			return "", err
		}
		if token != t.rejected {
			return token, nil
		}
		time.Sleep(time.Second)
	}
	return "", errors.New("rejected")
}

func (t *tokens) purge(ctx context.Context, c Doer) (int, error) {
	if _, err := t.exchange(ctx, c); err != nil {
		return 0, err
	}
	return 0, nil
}

// Each round deletes a batch and counts it: progress until none is left.
func (t *tokens) purgeAll(ctx context.Context, c Doer) (int, error) {
	deleted := 0
	for {
		n, err := t.purge(ctx, c)
		if err != nil {
			return deleted, err
		}
		deleted += n
		if n == 0 {
			return deleted, nil
		}
	}
}

type page struct {
	Items []string
	Next  string
}

func (t *tokens) list(ctx context.Context, c Doer, cursor string) (page, error) {
	if _, err := t.exchange(ctx, c); err != nil {
		return page{}, err
	}
	return page{}, nil
}

// A cursor moved on: each call asks for another page.
func (t *tokens) all(ctx context.Context, c Doer) ([]string, error) {
	var out []string
	cursor := ""
	for {
		p, err := t.list(ctx, c, cursor)
		if err != nil {
			return out, err
		}
		if p.Next == "" {
			return out, nil
		}
		cursor = p.Next
	}
}

// The round goes on with the result: it is used, not discarded.
func (t *tokens) collect(ctx context.Context, c Doer, want int) []string {
	var got []string
	for i := 0; i < want*2; i++ {
		token, err := t.exchange(ctx, c)
		if err != nil {
			return got
		}
		if len(got) == want {
			return got
		}
		got = append(got, token)
	}
	return got
}

func (t *tokens) exchangeAt(ctx context.Context, c Doer, host string) (string, error) {
	return t.exchange(ctx, c)
}

// The next round asks the next host: failover, not the same call again.
func (t *tokens) anyHost(ctx context.Context, c Doer, hosts []string) (string, error) {
	for i := 0; i < len(hosts); i++ {
		token, err := t.exchangeAt(ctx, c, hosts[i])
		if err != nil {
			return "", err
		}
		if token != t.rejected {
			return token, nil
		}
	}
	return "", errors.New("rejected")
}

func (t *tokens) exchangeWithin(ctx context.Context, c Doer, d time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	return t.exchange(ctx, c)
}

// Each round allows the call longer: another call, not the same again.
func (t *tokens) patient(ctx context.Context, c Doer) (string, error) {
	within := time.Second
	for attempt := 0; attempt < 3; attempt++ {
		token, err := t.exchangeWithin(ctx, c, within)
		if err != nil {
			return "", err
		}
		if token != t.rejected {
			return token, nil
		}
		within *= 2
	}
	return "", errors.New("rejected")
}

// The content that decides is another call's: a page of items whose
// last one ends the walk; a lookup that finds nothing goes on to the
// next item, not round to the same lookup.
func (t *tokens) reconcile(ctx context.Context, c Doer, db *sql.DB) error {
	cursor := ""
	for {
		p, err := t.list(ctx, c, cursor)
		if err != nil {
			return err
		}
		for _, id := range p.Items {
			var n int
			err := db.QueryRowContext(ctx, `SELECT n FROM t WHERE id = $1`, id).Scan(&n)
			if errors.Is(err, sql.ErrNoRows) {
				n = 0
			} else if err != nil {
				return err
			}
			if n == 0 {
				continue
			}
		}
		if p.Next == "" {
			return nil
		}
		cursor = p.Next
	}
}

// Until the batch comes back empty: the same call, a batch at a time.
func (t *tokens) purgeUntilEmpty(ctx context.Context, c Doer) error {
	for {
		n, err := t.purge(ctx, c)
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
	}
}

var errDone = errors.New("done")

type cursorIter struct {
	t *tokens
	c Doer
}

func (it *cursorIter) Next(ctx context.Context) (string, error) {
	token, err := it.t.exchange(ctx, it.c)
	if err != nil {
		return "", err
	}
	if token == "" {
		return "", errDone
	}
	return token, nil
}

// An iterator read to its end: each Next is the next item.
func (it *cursorIter) find(ctx context.Context, want string) (bool, error) {
	for {
		token, err := it.Next(ctx)
		if err == errDone {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if token == want {
			return true, nil
		}
	}
}

// The same iterator, its end told apart from its errors in two tests.
func (it *cursorIter) contains(ctx context.Context, want string) (bool, error) {
	for {
		token, err := it.Next(ctx)
		if err != nil && err != errDone {
			return false, err
		}
		if err == errDone {
			break
		}
		if token == want {
			return true, nil
		}
	}
	return false, nil
}

type rejection struct{ code int }

func (r *rejection) Error() string { return "rejected" }

type results struct{ rows []string }

// Drained until nothing is left: a rejection of one result goes on to
// the next.
func (t *tokens) drain(ctx context.Context, c Doer) error {
	var last error
	for {
		res, err := t.nextResult(ctx, c)
		if err != nil {
			last = err
			var rej *rejection
			if !errors.As(err, &rej) {
				break
			}
		} else if res == nil {
			break
		}
	}
	return last
}

func (t *tokens) nextResult(ctx context.Context, c Doer) (*results, error) {
	if _, err := t.exchange(ctx, c); err != nil {
		return nil, err
	}
	return &results{}, nil
}
