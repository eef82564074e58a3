// Package use sends through clients package maker makes: each send is
// judged by what the constructor set, and what is set here after. The
// sends through clients one constructor makes are one finding, fixed
// there: it stands at the first of them.
package use

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"

	"libclients/made/maker"
	"libclients/made/remaker"
)

func get(ctx context.Context, url string) (*retryablehttp.Request, error) {
	return retryablehttp.NewRequestWithContext(ctx, http.MethodGet, url, nil)
}

func direct(ctx context.Context) error {
	req, err := get(ctx, "http://example.com/a")
	if err != nil {
		return err
	}
	_, err = maker.New().Do(req) // want `retryablehttp client retries with no retry budget, at 2 sends through clients libclients/made/maker.New makes: under an outage`
	return err
}

func local() error {
	c := maker.New()
	_, err := c.Get("http://example.com/b") // related: sent here
	return err
}

func checked(base string) error {
	c, err := maker.NewChecked(base)
	if err != nil {
		return err
	}
	_, err = c.Head(base) // want `retryablehttp client retries with no retry budget: under an outage`
	return err
}

func wrapped() error {
	_, err := maker.Wrapped().Get("http://example.com/c") // want `retryablehttp client retries with no retry budget: under an outage`
	return err
}

// Negatives.

func noRetry() error {
	_, err := maker.NoRetry().Get("http://example.com/d")
	return err
}

func literal() error {
	_, err := maker.Literal().Get("http://example.com/e")
	return err
}

func hooked(prepare retryablehttp.PrepareRetry) error {
	_, err := maker.Hooked(prepare).Get("http://example.com/f")
	return err
}

func configured(configure func(*retryablehttp.Client)) error {
	_, err := maker.Configured(configure).Get("http://example.com/g")
	return err
}

func either() error {
	_, err := maker.Either(true).Get("http://example.com/h")
	return err
}

func given(c *retryablehttp.Client) error {
	_, err := maker.Given(c).Get("http://example.com/i")
	return err
}

// The caller turns retries off after the constructor.
func turnedOff() error {
	c := maker.New()
	c.RetryMax = 0
	_, err := c.Get("http://example.com/j")
	return err
}

// The caller sets a hook that can refuse a retry after the constructor.
func hookedAfter(prepare retryablehttp.PrepareRetry) error {
	c := maker.New()
	c.PrepareRetry = prepare
	_, err := c.Get("http://example.com/k")
	return err
}

// The caller hands the client on before sending.
func handedAfter(configure func(*retryablehttp.Client)) error {
	c := maker.New()
	configure(c)
	_, err := c.Get("http://example.com/l")
	return err
}

// Through two packages: maker's client as remaker configures it.
func twice() error {
	_, err := remaker.Slower().Get("http://example.com/m") // want `retryablehttp client retries with no retry budget: under an outage`
	return err
}

func guarded(prepare retryablehttp.PrepareRetry) error {
	_, err := remaker.Guarded(prepare).Get("http://example.com/n")
	return err
}

func off() error {
	_, err := remaker.Off().Get("http://example.com/o")
	return err
}

func shared() error {
	_, err := remaker.Shared().Get("http://example.com/p")
	return err
}

// A kept client that another function of its package only reads.
func pooled() error {
	_, err := remaker.Pooled().Get("http://example.com/q") // want `retryablehttp client retries with no retry budget: under an outage`
	return err
}
