package a

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"time"
)

// A sender that tries a stale keep-alive connection once more, with the
// request built again by the same builder: the builder's POST is what
// both attempts send.
type pusher struct{ hc *http.Client }

func (p *pusher) newRequest(url string, body []byte) (*http.Request, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	return req, nil
}

func (p *pusher) doRequest(url string, body []byte) (*http.Response, error) {
	req, err := p.newRequest(url, body)
	if err != nil {
		return nil, err
	}
	resp, err := p.hc.Do(req)
	if err == nil || !errors.Is(err, io.EOF) {
		return resp, err
	}
	req, err = p.newRequest(url, body)
	if err != nil {
		return nil, err
	}
	return p.hc.Do(req)
}

func (p *pusher) push(url string, block []byte) {
again:
	resp, err := p.doRequest(url, block) // want `POST request is re-sent by a retry loop without an idempotency key`
	if err != nil {
		time.Sleep(time.Second)
		goto again
	}
	resp.Body.Close()
}

// Look-alike: the second attempt sends a request built another way (a
// GET to probe the server): which request is sent is not one method.
func (p *pusher) doProbe(url string, body []byte) (*http.Response, error) {
	req, err := p.newRequest(url, body)
	if err != nil {
		return nil, err
	}
	resp, err := p.hc.Do(req)
	if err == nil {
		return resp, nil
	}
	req, err = http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return p.hc.Do(req)
}

func (p *pusher) probe(url string, block []byte) {
	for i := 0; i < 3; i++ {
		resp, err := p.doProbe(url, block)
		if err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(time.Second)
	}
}
