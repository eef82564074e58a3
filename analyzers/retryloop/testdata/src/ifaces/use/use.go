package use

import (
	"context"

	"ifaces/svc"
)

// The interface's one implementation in its package sends a request:
// the call is remote.
func waitAction(ctx context.Context, c *svc.Client, id string) error {
	fails := 0
	for { // want `retry site: shape=bare bound=counter delay=absent jitter=no ctx=caller remote`
		_, err := c.Actions.Get(ctx, id)
		if err == nil {
			return nil
		}
		if fails < 3 {
			fails++
			continue
		}
		return err
	}
}

// Look-alikes: an interface with a local implementation, or none in its
// package, is unknown: not remote.
func cached(ctx context.Context, c *svc.Client, id string) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=caller`
		if _, err := c.Cache.Get(ctx, id); err == nil {
			return nil
		}
	}
	return nil
}

func hook(ctx context.Context, c *svc.Client, id string) error {
	for i := 0; i < 3; i++ { // want `retry site: shape=counted bound=counter delay=absent jitter=no ctx=caller`
		if err := c.Hooks.Fire(ctx, id); err == nil {
			return nil
		}
	}
	return nil
}
