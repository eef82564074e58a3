package shapes

import (
	"net/http"
	"time"
)

// Status-code sets a client copies from its options: the codes the
// package writes decide the polarity; codes a caller passes in do not
// change what the set is for.

type setOptions struct {
	retryOn   map[int]bool
	pendingOn map[int]bool
	mixedOn   map[int]bool
	customOn  map[int]bool
}

func defaultSetOptions() *setOptions {
	return &setOptions{
		retryOn:   map[int]bool{502: true, 503: true, 504: true},
		pendingOn: map[int]bool{202: true},
		mixedOn:   map[int]bool{503: true},
		customOn:  loadCodes(),
	}
}

func loadCodes() map[int]bool { return nil }

// WithRetryOn replaces the retryable codes with the caller's.
func (o *setOptions) WithRetryOn(codes []int) {
	o.retryOn = make(map[int]bool)
	for _, c := range codes {
		o.retryOn[c] = true
	}
}

type setClient struct {
	hc        *http.Client
	retryOn   map[int]bool
	pendingOn map[int]bool
	mixedOn   map[int]bool
	customOn  map[int]bool
}

func newSetClient(o *setOptions) *setClient {
	c := &setClient{hc: http.DefaultClient, retryOn: o.retryOn, pendingOn: o.pendingOn, mixedOn: o.mixedOn, customOn: o.customOn}
	if c.retryOn == nil {
		c.retryOn = map[int]bool{502: true, 503: true}
	}
	c.mixedOn[200] = true
	return c
}

// The set's written codes are failure codes: a failure status goes round.
func (c *setClient) do(req *http.Request, disabled bool) (*http.Response, error) {
	tries := 0
	for { // want `retry site: shape=bare bound=counter delay=fixed jitter=no ctx=unknown remote req=\?`
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if disabled || !c.retryOn[resp.StatusCode] {
			return resp, nil
		}
		resp.Body.Close()
		if tries >= 3 {
			return nil, err
		}
		tries++
		time.Sleep(time.Second)
	}
}

// Look-alike: the written code is 202 (pending): re-sending while it
// holds is polling.
func (c *setClient) await(req *http.Request) (*http.Response, error) {
	for {
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if !c.pendingOn[resp.StatusCode] {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(time.Second)
	}
}

// Look-alike: the package writes a failure and a success code into the
// set: what it is for is unknown.
func (c *setClient) mixed(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if !c.mixedOn[resp.StatusCode] {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(time.Second)
	}
	return nil, nil
}

// Look-alike: the set comes from a function's result: unknown.
func (c *setClient) custom(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if !c.customOn[resp.StatusCode] {
			return resp, nil
		}
		resp.Body.Close()
		time.Sleep(time.Second)
	}
	return nil, nil
}
