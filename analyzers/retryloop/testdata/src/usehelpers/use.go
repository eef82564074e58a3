package usehelpers

import (
	"context"
	"errors"
	"net/http"
	"time"

	"helpers"
)

func viaFacts(url string) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=none remote`
		resp, err := helpers.Fetch(url)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		helpers.Pause(time.Second)
	}
	return errors.New("gave up")
}

func growingViaFacts(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=growing jitter=no ctx=caller consulted remote req=POST`
		if err := helpers.Charge(ctx, c, url); err == nil {
			return nil
		}
		if err := helpers.PauseCtx(ctx, helpers.Backoff(i)); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

func jitterViaFacts(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=unknown jitter=yes ctx=caller remote req=POST\+key\(minted-in-loop\)`
		if err := helpers.ChargeFreshKey(ctx, c, url); err == nil {
			return nil
		}
		time.Sleep(helpers.JitteredBackoff(i))
	}
	return errors.New("gave up")
}

func viaRetrier(url string) error {
	return helpers.Retry(3, time.Second, func() error { // want `retry site: shape=helper bound=counter delay=fixed jitter=no ctx=none remote`
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

func viaGrowing(op func() error) error {
	return helpers.RetryGrow(5, 100*time.Millisecond, op) // want `retry site: shape=helper bound=counter delay=growing jitter=no ctx=unknown`
}

func viaSend(ctx context.Context, c *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := helpers.Send(c, req) // want `retry site: shape=helper bound=counter delay=unknown jitter=no ctx=unknown req=POST`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Requests built by another package's builders.
func viaBuilder(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=unknown remote req=POST`
		req, err := helpers.NewRequest(ctx, http.MethodPost, url)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

func viaKeyedBuilder(ctx context.Context, c *http.Client, url string) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=unknown remote req=POST\+key\(minted-in-loop\)`
		req, err := helpers.NewPostRequest(ctx, url)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}
