package fix

import (
	"errors"
	"net/http"
	"time"
)

func fixed(url string) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(2 * time.Second) // want `retry waits a fixed delay`
	}
	return nil, errors.New("gave up")
}

func nameTaken(op func() error) error {
	backoff := "taken"
	_ = backoff
	for i := 0; i < 3; i++ {
		if err := op(); err == nil {
			return nil
		}
		<-time.After(250 * time.Millisecond) // want `retry waits a fixed delay`
	}
	return errors.New("gave up")
}

func labeled(op func() error) error {
outer:
	for i := 0; i < 3; i++ {
		if err := op(); err == nil {
			break outer
		}
		time.Sleep(time.Second) // want `retry waits a fixed delay`
	}
	return nil
}

// No fix: a delay at or above the 10s cap would be shortened.
func long(op func() error) error {
	for i := 0; i < 3; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(30 * time.Second) // want `retry waits a fixed delay`
	}
	return errors.New("gave up")
}
