package fix

import (
	"errors"
	"net/http"
	"time"
)

// Loops that retry on a failure status as well as on an error get no
// guard: a guard on err would let the status retries through unasked and
// record them as successes.

func readyOK(c *http.Client, url string) error {
	for i := 0; i < 10; i++ { // want `retry loop has no retry budget`
		resp, err := c.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(time.Duration(i) * 200 * time.Millisecond)
	}
	return errors.New("not ready")
}

func retry5xx(c *http.Client, url string) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := c.Get(url)
		if err != nil {
			time.Sleep(time.Duration(i) * time.Second)
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			time.Sleep(time.Duration(i) * time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

type Mirror struct{ c *http.Client }

// No fix here, so no mirrorBudget is declared for it anywhere.
func (m *Mirror) Sync(url string) error {
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := m.c.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(time.Duration(i) * time.Second)
	}
	return errors.New("mirror: gave up")
}
