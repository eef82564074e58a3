// Package directives holds //retrylint:ignore directives that suppress
// nothing: each is reported once, by retrybudget, and the finding it
// meant to silence stays.
package directives

import (
	"errors"
	"net/http"
)

func typo(url string) (*http.Response, error) {
	//retrylint:ignore retrybudgte single-client batch job // want `retrylint:ignore directive names "retrybudgte", which is no analyzer: it suppresses nothing; did you mean retrybudget\?`
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

func unknownName(url string) (*http.Response, error) {
	//retrylint:ignore budget single-client batch job // want `names "budget", which is no analyzer: it suppresses nothing \(analyzers: retrybudget, retryjitter, retrysleep, retryidempotency, retrydeadline, retrynested\)`
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// A known name next to an unknown one still silences its analyzer.
func mixed(url string) (*http.Response, error) {
	//retrylint:ignore retrysleeep,retrybudget single-client batch job // want `names "retrysleeep", which is no analyzer: it suppresses nothing; did you mean retrysleep\?`
	for i := 0; i < 3; i++ {
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

func spaced(url string) (*http.Response, error) {
	// retrylint:ignore retrybudget single-client batch job // want `retrylint:ignore after a space is a comment, not a directive: it suppresses nothing; write //retrylint:ignore`
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

func unknownVerb(url string) (*http.Response, error) {
	//retrylint:ingore retrybudget single-client batch job // want `unknown directive //retrylint:ingore: it suppresses nothing; the directive is //retrylint:ignore <analyzer> <reason>`
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// Prose that mentions the tool after a space is no directive.
func prose(url string) (*http.Response, error) {
	// retrylint: this loop is reported, and that is fine for the test.
	for i := 0; i < 3; i++ { // want `retry loop has no retry budget`
		resp, err := http.Get(url)
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}
