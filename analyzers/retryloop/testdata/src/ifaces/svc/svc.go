// Package svc is an API client whose services are interfaces implemented
// by the package's own types.
package svc

import (
	"context"
	"net/http"
)

type Client struct {
	hc      *http.Client
	Actions ActionsService
	Cache   CacheService
	Hooks   HooksService
}

// ActionsService has one implementation here, which sends a request.
type ActionsService interface {
	Get(ctx context.Context, id string) (*Action, error)
}

type Action struct{ Status string }

type actionsOp struct{ c *Client }

func (a *actionsOp) Get(ctx context.Context, id string) (*Action, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.example/actions/"+id, nil)
	if err != nil {
		return nil, err
	}
	resp, err := a.c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return &Action{Status: resp.Status}, nil
}

// CacheService has two implementations, one of them local.
type CacheService interface {
	Get(ctx context.Context, id string) (string, error)
}

type remoteCache struct{ c *Client }

func (r remoteCache) Get(ctx context.Context, id string) (string, error) {
	a, err := r.c.Actions.Get(ctx, id)
	if err != nil {
		return "", err
	}
	return a.Status, nil
}

type memCache map[string]string

func (m memCache) Get(_ context.Context, id string) (string, error) {
	return m[id], nil
}

// HooksService has no implementation here: the user supplies it.
type HooksService interface {
	Fire(ctx context.Context, id string) error
}
