package settled

import (
	"errors"
	"net/http"
)

type client struct {
	hc    *http.Client
	token string
}

func (c *client) refresh() error {
	resp, err := c.hc.Get("https://auth.example/token")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	c.token = resp.Header.Get("X-Token")
	return nil
}

// One re-attempt after a token refresh, triggered by 401 only: a repair.
func (c *client) get(url string) (*http.Response, error) {
	for attempt := 0; attempt < 2; attempt++ {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusUnauthorized && attempt == 0 {
			resp.Body.Close()
			if err := c.refresh(); err != nil {
				return nil, err
			}
			continue
		}
		return resp, nil
	}
	return nil, errors.New("unauthorized")
}

// The same by recursion.
func (c *client) getOnce(url string, refreshed bool) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized && !refreshed {
		resp.Body.Close()
		if err := c.refresh(); err != nil {
			return nil, err
		}
		return c.getOnce(url, true)
	}
	return resp, nil
}

// Not a repair: any failure goes round, with no wait, three times.
func (c *client) getAny(url string) (*http.Response, error) {
	var last error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop retries at once`
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := c.hc.Do(req)
		if err != nil {
			last = err
			continue
		}
		if resp.StatusCode == http.StatusUnauthorized {
			resp.Body.Close()
			_ = c.refresh()
			continue
		}
		return resp, nil
	}
	return nil, last
}
