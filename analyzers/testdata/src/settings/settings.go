// Package settings holds one retry loop whose verdict each option turns:
// fetch consults a limiter only -retrybudget.budget-funcs names, charge
// sends a key only -retryidempotency.headers names (TestSuitesIndependent).
package settings

import (
	"math/rand"
	"net/http"
	"time"
)

type limiter struct{}

// Allow is a budget check only when -retrybudget.budget-funcs names it.
func (*limiter) Allow() bool { return true }

var lim limiter

func fetch(c *http.Client, req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		if !lim.Allow() {
			break
		}
		var resp *http.Response
		resp, err = c.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Duration(rand.Int63n(int64(100 * time.Millisecond << i))))
	}
	return nil, err
}

func charge(c *http.Client, url, key string) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequest(http.MethodPost, url, nil)
		req.Header.Set("X-Request-Token", key)
		var resp *http.Response
		resp, err = c.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Duration(rand.Int63n(int64(100 * time.Millisecond << i))))
	}
	return nil, err
}
