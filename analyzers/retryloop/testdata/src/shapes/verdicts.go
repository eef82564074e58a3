package shapes

import (
	"errors"
	"net"
	"net/http"
	"time"
)

// The failure that leads back may be told by a status test or by a
// verdict of the package's own, not only by an error test: a jump back
// taken on a 503, a classifier that answers "retry" on a failure status
// (retry, err := classify(resp)), a predicate of the response itself.
// A jump or a verdict that tests no outcome (a next page, a counter)
// is no retry.

// A goto back on a failure status.
func getAgain(c *http.Client, url string) (*http.Response, error) {
	tries := 0
again:
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusServiceUnavailable && tries < 3 {
		resp.Body.Close()
		tries++
		time.Sleep(time.Second)
		goto again // want `retry site: shape=goto bound=counter delay=fixed jitter=no ctx=unknown remote$`
	}
	return resp, nil
}

// classifyStatus says "retry" on a server error.
func classifyStatus(resp *http.Response) (bool, error) {
	if resp.StatusCode >= 500 {
		return true, nil
	}
	if resp.StatusCode >= 400 {
		return false, errors.New(resp.Status)
	}
	return false, nil
}

func getClassified(c *http.Client, url string) (*http.Response, error) {
	for i := 0; i < 5; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown remote attempts=5$`
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		retry, err := classifyStatus(resp)
		if err != nil {
			return nil, err
		}
		if retry {
			resp.Body.Close()
			time.Sleep(2 * time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

// The verdict read before its error.
func getClassifiedFirst(c *http.Client, url string) (*http.Response, error) {
	for i := 0; i < 5; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown remote attempts=5$`
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		retry, err := classifyStatus(resp)
		if retry {
			resp.Body.Close()
			time.Sleep(2 * time.Second)
			continue
		}
		if err != nil {
			return nil, err
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

func serverBusy(resp *http.Response) bool {
	return resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests
}

// A predicate of the response itself.
func getRetryable(c *http.Client, url string) (*http.Response, error) {
	for i := 0; i < 5; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown remote attempts=5$`
		resp, err := c.Get(url)
		if err != nil {
			return nil, err
		}
		if serverBusy(resp) {
			resp.Body.Close()
			time.Sleep(2 * time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

// Negatives.

// morePages computes its verdict from the content: "more to come".
func morePages(resp *http.Response) (bool, error) {
	if resp.StatusCode != http.StatusOK {
		return false, errors.New(resp.Status)
	}
	return resp.Header.Get("Link") != "", nil
}

// hasNext says true on a header, not on an outcome.
func hasNext(resp *http.Response) (bool, error) {
	if resp.Header.Get("Link") != "" {
		return true, nil
	}
	if resp.StatusCode != http.StatusOK {
		return false, errors.New(resp.Status)
	}
	return false, nil
}

// Pages walked: the verdict says "more", the next round asks for the
// next page.
func allPages(c *http.Client, url string) (n int, err error) {
	for {
		resp, err := c.Get(url)
		if err != nil {
			return n, err
		}
		resp.Body.Close()
		n++
		ok, err := morePages(resp)
		if err != nil {
			return n, err
		}
		if ok {
			url = resp.Header.Get("Link")
			continue
		}
		return n, nil
	}
}

// The same with the verdict in the condition.
func allPagesCond(c *http.Client, url string) (n int, err error) {
	for {
		resp, err := c.Get(url)
		if err != nil {
			return n, err
		}
		resp.Body.Close()
		n++
		if ok, err := morePages(resp); err != nil || !ok {
			return n, err
		}
		url = resp.Header.Get("Link")
	}
}

// A literal true on a header test.
func allLinked(c *http.Client, url string) (n int, err error) {
	for {
		resp, err := c.Get(url)
		if err != nil {
			return n, err
		}
		resp.Body.Close()
		n++
		next, err := hasNext(resp)
		if err != nil {
			return n, err
		}
		if !next {
			return n, nil
		}
		url = resp.Header.Get("Link")
	}
}

// A goto to the next page, taken on the page's content alone.
func gotoPages(c *http.Client, next func() string) (n int) {
page:
	url := next()
	if url == "" {
		return n
	}
	resp, err := c.Get(url)
	if err == nil {
		resp.Body.Close()
		n++
	}
	goto page
}

// A goto taken on a counter: the same request sent a fixed number of
// times whatever it answers (a warm-up), not a retry.
func warmUp(c *http.Client, url string) {
	n := 0
again:
	if resp, err := c.Get(url); err == nil {
		resp.Body.Close()
	}
	n++
	if n < 3 {
		goto again
	}
}

// A goto back when a local queue has more work.
func drainGoto(c *http.Client, urls []string) (errs int) {
next:
	if len(urls) == 0 {
		return errs
	}
	url := urls[0]
	urls = urls[1:]
	resp, err := c.Get(url)
	if err != nil {
		errs++
		goto next
	}
	resp.Body.Close()
	goto next
}

// hasMoreOK sets true on a success status with a next link: a verdict
// on success and content, not on a failure.
func hasMoreOK(resp *http.Response) (bool, error) {
	if resp.StatusCode == http.StatusOK && resp.Header.Get("Link") != "" {
		return true, nil
	}
	if resp.StatusCode >= 400 {
		return false, errors.New(resp.Status)
	}
	return false, nil
}

func allMoreOK(c *http.Client, url string) (n int, err error) {
	for {
		resp, err := c.Get(url)
		if err != nil {
			return n, err
		}
		resp.Body.Close()
		n++
		more, err := hasMoreOK(resp)
		if err != nil {
			return n, err
		}
		if more {
			url = resp.Header.Get("Link")
			continue
		}
		return n, nil
	}
}

func okResp(resp *http.Response) bool {
	return resp.StatusCode < 300
}

// A predicate of the response that says "ok": pages go on on success.
func pagesWhileOK(c *http.Client, next func() string) (n int) {
	for {
		resp, err := c.Get(next())
		if err != nil {
			return n
		}
		resp.Body.Close()
		if okResp(resp) {
			n++
			continue
		}
		return n
	}
}

// A goto back after a read that handed something: a stream read on,
// guarded by the read's result.
func readOn(conn net.Conn, sink func([]byte)) error {
	buf := make([]byte, 512)
more:
	n, err := conn.Read(buf)
	if n > 0 {
		sink(buf[:n])
		goto more
	}
	return err
}
