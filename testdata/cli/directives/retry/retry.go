// Package retry holds directives that suppress nothing: a misspelled
// analyzer, the spaced form and an unknown verb. Each is reported, and
// the findings they meant to silence stay.
package retry

import (
	"errors"
	"net/http"
)

// Typo names an analyzer that does not exist.
func Typo(url string) (*http.Response, error) {
	//retrylint:ignore retrybudgte single-client batch job
	for i := 0; i < 3; i++ {
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// Spaced puts a space after the slashes.
func Spaced(url string) (*http.Response, error) {
	// retrylint:ignore retrybudget single-client batch job
	for i := 0; i < 3; i++ {
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// Fine is silenced by a correct directive.
func Fine(url string) (*http.Response, error) {
	//retrylint:ignore retrybudget single-client batch job
	for i := 0; i < 3; i++ {
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}
