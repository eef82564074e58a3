package retryfixture

import (
	"net/http"
	"time"
)

// Fetch gets url, trying five times one second apart.
//
// retrybudget: an unbudgeted retry loop around a remote call.
// retrysleep: time.Sleep between attempts cannot be cancelled.
// retrydeadline: no context, so no deadline bounds the attempts.
func Fetch(url string) (*http.Response, error) {
	var lastErr error
	for i := 0; i < 5; i++ {
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		time.Sleep(time.Second)
	}
	return nil, lastErr
}
