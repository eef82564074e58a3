// Package crawl holds a polite, rate-limited crawler.
package crawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// crawlBudget is shared by every fetch of every crawler in the process.
var crawlBudget budget.Adaptive

// Crawler fetches pages breadth first, at most one request per tick.
type Crawler struct {
	hc       *http.Client
	tick     <-chan time.Time
	maxPages int
	pages    map[string][]byte
}

// NewCrawler returns a crawler that sends at most one request per interval.
func NewCrawler(interval time.Duration, maxPages int) *Crawler {
	return &Crawler{
		hc:       &http.Client{Timeout: 15 * time.Second},
		tick:     time.Tick(interval),
		maxPages: maxPages,
		pages:    map[string][]byte{},
	}
}

var hrefRE = regexp.MustCompile(`href="([^"#]+)"`)

// Crawl visits pages reachable from seeds on the seeds' hosts.
func (c *Crawler) Crawl(ctx context.Context, seeds []string) (map[string][]byte, error) {
	queue := append([]string(nil), seeds...)
	hosts := map[string]bool{}
	for _, s := range seeds {
		if u, err := url.Parse(s); err == nil {
			hosts[u.Host] = true
		}
	}
next:
	for len(queue) > 0 && len(c.pages) < c.maxPages {
		page := queue[0]
		queue = queue[1:]
		if _, seen := c.pages[page]; seen {
			continue
		}
		select {
		case <-ctx.Done():
			return c.pages, ctx.Err()
		case <-c.tick:
		}
		body, err := c.fetch(ctx, page)
		if err != nil {
			c.pages[page] = nil // do not come back to it
			continue next
		}
		c.pages[page] = body
		base, _ := url.Parse(page)
		for _, m := range hrefRE.FindAllSubmatch(body, -1) {
			ref, err := base.Parse(string(m[1]))
			if err != nil || !hosts[ref.Host] {
				continue
			}
			queue = append(queue, ref.String())
		}
	}
	return c.pages, nil
}

// errGone marks a page that will never come back.
var errGone = errors.New("page gone")

// fetch GETs a page, honouring Retry-After on 429 and backing off with
// jitter on 5xx.
func (c *Crawler) fetch(ctx context.Context, page string) ([]byte, error) {
	seq := budget.Backoff{Base: 250 * time.Millisecond, Cap: 5 * time.Second}.Start()
	timer := time.NewTimer(0)
	<-timer.C
	defer timer.Stop()
	var lastErr error
	for attempt := 1; attempt <= 4; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, page, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("User-Agent", "holdoutbot/1.0")
		resp, err := c.hc.Do(req)
		crawlBudget.Record(err)
		var wait time.Duration
		switch {
		case err != nil:
			lastErr = err
			wait = seq.Next()
		case resp.StatusCode == http.StatusOK:
			body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
			resp.Body.Close()
			return body, err
		case resp.StatusCode == http.StatusTooManyRequests:
			secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			resp.Body.Close()
			lastErr = fmt.Errorf("%s: throttled", page)
			wait = time.Duration(secs) * time.Second
		case resp.StatusCode >= 500:
			resp.Body.Close()
			lastErr = fmt.Errorf("%s: status %d", page, resp.StatusCode)
			wait = seq.Next()
		default:
			resp.Body.Close()
			return nil, fmt.Errorf("%w: %s: status %d", errGone, page, resp.StatusCode)
		}
		if attempt == 4 || !crawlBudget.Allow() {
			break
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
		}
	}
	return nil, lastErr
}

// FetchRobots downloads robots.txt for host.
func (c *Crawler) FetchRobots(ctx context.Context, host string) (string, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := http.Get("https://" + host + "/robots.txt")
		if err == nil {
			b, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if rerr == nil && resp.StatusCode < 500 {
				return string(b), nil
			}
			err = fmt.Errorf("robots %s: status %d", host, resp.StatusCode)
		}
		lastErr = err
		time.Sleep(time.Duration(1<<attempt) * 100 * time.Millisecond)
	}
	return "", lastErr
}
