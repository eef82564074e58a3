package retryhelper

import (
	"math/rand"
	"net/http"
	"time"
)

// retry is a generic helper: judged at each call through its fact.
func retry(attempts int, delay time.Duration, fn func() error) (err error) {
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		time.Sleep(delay)
	}
	return err
}

func fetch(url string) error {
	return retry(3, time.Second, func() error { // want `retry waits a fixed delay`
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// A random delay passed in: fine.
func fetchJittered(url string) error {
	return retry(3, time.Duration(rand.Int63n(int64(time.Second))), func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// A delay the analysis cannot see: silent.
func fetchConfigured(url string, d time.Duration) error {
	return retry(3, d, func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}
