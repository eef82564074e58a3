package settled

import (
	"context"
	"errors"
	"net/http"
)

var errNotLeader = errors.New("not leader")

type cluster struct {
	c      *http.Client
	leader string
	token  string
}

func (k *cluster) send(ctx context.Context, addr string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, addr, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", k.token)
	resp, err := k.c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusMisdirectedRequest:
		return errNotLeader
	case http.StatusUnauthorized:
		return errUnauthorized
	}
	return nil
}

var errUnauthorized = errors.New("unauthorized")

func (k *cluster) resolve(ctx context.Context) (string, error) {
	resp, err := k.c.Get("http://discovery/leader")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return resp.Header.Get("Leader"), nil
}

func (k *cluster) refresh(ctx context.Context) error {
	resp, err := k.c.Get("http://auth/token")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	k.token = resp.Header.Get("Token")
	return nil
}

// One re-attempt after re-resolving the leader, on "not leader" only: a
// repair, not a retry.
func (k *cluster) call(ctx context.Context) error {
	for attempt := 0; attempt < 2; attempt++ {
		err := k.send(ctx, k.leader)
		if errors.Is(err, errNotLeader) && attempt == 0 {
			leader, rerr := k.resolve(ctx)
			if rerr != nil {
				return rerr
			}
			k.leader = leader
			continue
		}
		return err
	}
	return errNotLeader
}

// One re-attempt after a token refresh, by recursion.
func (k *cluster) callAuthed(ctx context.Context, refreshed bool) error {
	err := k.send(ctx, k.leader)
	if errors.Is(err, errUnauthorized) && !refreshed {
		if err := k.refresh(ctx); err != nil {
			return err
		}
		return k.callAuthed(ctx, true)
	}
	return err
}

// Any failure goes round: a retry, whatever it repairs on the way.
func (k *cluster) callAny(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop has no retry budget`
		if err = k.send(ctx, k.leader); err == nil {
			return nil
		}
		if errors.Is(err, errUnauthorized) {
			_ = k.refresh(ctx)
		}
	}
	return err
}
