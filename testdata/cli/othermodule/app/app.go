// Package app calls a generic retry helper of its own module and the
// same helper from a library module.
package app

import (
	"net/http"
	"time"

	"example.com/retrylib"
)

func ping(url string) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// retry is this module's own helper: judged here.
func retry(attempts int, op func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func Own(url string) error {
	return retry(3, func() error { return ping(url) })
}

func Library(url string) error {
	return retrylib.Do(3, func() error { return ping(url) })
}
