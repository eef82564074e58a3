// Package fetch retries a GET three times, asking the limiter before
// each retry.
package fetch

import (
	"net/http"

	"example.com/budgetfuncs/lim"
)

// Get fetches url.
func Get(l *lim.Limiter, url string) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = http.Get(url)
		if err == nil {
			return resp, nil
		}
		if !l.Permit() {
			break
		}
	}
	return nil, err
}
