package shapes

import (
	"errors"
	"log"
	"net/http"
	"time"
)

// next is the next link of a middleware chain: a round trip by its
// signature, whatever value it holds.
type next = func(*http.Request) (*http.Response, error)

// The SDK shape: a handler built from a client's Do and middlewares, and
// a classifier of the code handed the response and the error beside the
// request decides the retry.
func sendChain(handler next, req *http.Request, max int) (*http.Response, error) {
	var res *http.Response
	var err error
	for n := 0; ; n++ { // want `retry site: shape=bare bound=counter delay=fixed jitter=no ctx=unknown remote`
		last := n >= max
		res, err = handler(req)
		if last || !retryableRT(req, res, err) {
			break
		}
		time.Sleep(time.Second)
	}
	return res, err
}

// The verdict held in a variable first (retry := retryable(req, res)).
func sendVerdict(handler next, req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for n := 0; n < 3; n++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=unknown remote attempts=3`
		res, err = handler(req)
		retry := retryableResp(req, res)
		if !retry {
			break
		}
	}
	return res, err
}

func retryableRT(req *http.Request, res *http.Response, err error) bool {
	if req.GetBody == nil && req.Body != nil {
		return false
	}
	if err != nil || res == nil {
		return true
	}
	return res.StatusCode >= 500
}

func retryableResp(req *http.Request, res *http.Response) bool {
	return req.Method == http.MethodGet && (res == nil || res.StatusCode == http.StatusServiceUnavailable)
}

// Look-alikes.

// A function value of another signature is no round trip: the operation
// is not known to be remote.
func otherFuncValue(op func(string) error) error {
	var err error
	for n := 0; n < 3; n++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown`
		if err = op("x"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A function handed the outcome whose verdict leaves on neither branch
// decides nothing: a read loop logging what it reads.
func logsOutcome(handler next, req *http.Request) {
	for {
		res, err := handler(req)
		if noisy(res, err) {
			log.Print("noisy")
		}
		if err != nil {
			return
		}
	}
}

func noisy(res *http.Response, err error) bool {
	return err != nil || res.StatusCode >= 400
}

// A classifier handed something other than the outcome is no judge of it.
func notOutcome(handler next, req *http.Request, seen error) {
	for n := 0; n < 3; n++ {
		_, _ = handler(req)
		if !errors.Is(seen, errStop) && keepGoing(req, seen) {
			continue
		}
		return
	}
}

var errStop = errors.New("stop")

func keepGoing(req *http.Request, err error) bool { return req != nil && err == nil }

// The ACME client shape: a function value judges the response (ok(res)),
// the status decides the retry, in a switch; the operation hands back its
// request beside the response.
type resOkay func(*http.Response) bool

func getOK(c *http.Client, url string, ok resOkay) (*http.Response, error) {
	for n := 0; ; n++ { // want `retry site: shape=bare bound=none delay=fixed jitter=no ctx=unknown remote req=GET attempts=unbounded`
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		res, err := c.Do(req)
		switch {
		case err != nil:
			return nil, err
		case ok(res):
			return res, nil
		case retriableCode(res.StatusCode):
			res.Body.Close()
			time.Sleep(time.Second)
		default:
			return nil, errors.New(res.Status)
		}
	}
}

func postOK(c *http.Client, url string, ok resOkay) (*http.Response, error) {
	for n := 0; n < 3; n++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=unknown remote attempts=3`
		res, _, err := postOnce(c, url)
		if err != nil {
			return nil, err
		}
		if ok(res) {
			return res, nil
		}
		res.Body.Close()
		if !retriableCode(res.StatusCode) {
			return nil, errors.New(res.Status)
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

func postOnce(c *http.Client, url string) (*http.Response, *http.Request, error) {
	req, err := http.NewRequest(http.MethodPut, url, nil)
	if err != nil {
		return nil, nil, err
	}
	res, err := c.Do(req)
	return res, req, err
}

// A code set the analysis cannot read alone: 3xx and below too.
func retriableCode(code int) bool {
	return code <= 399 || code >= 500 || code == http.StatusTooManyRequests
}

// Look-alike: the judge's case goes on reading, not leaving: a read loop.
func readOK(c *http.Client, url string, ok resOkay, out chan<- *http.Response) {
	for {
		res, err := c.Get(url)
		switch {
		case err != nil:
			return
		case ok(res):
			out <- res
		}
	}
}

// Look-alike: a consume loop whose helper is handed each outcome and only
// passes it on to a handler saying whether to go on: no judge is seen, and
// success going round is no retry.
func consumeHandled(c *http.Client, url string, handle func(*http.Response, error) bool) {
	for {
		res, err := c.Get(url)
		if !keepReading(res, err, handle) {
			return
		}
	}
}

func keepReading(res *http.Response, err error, handle func(*http.Response, error) bool) bool {
	return handle(res, err)
}
