package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"
)

// retry calls fn up to n times, pausing between attempts.
func retry[T any](ctx context.Context, n int, fn func() (T, error)) (T, error) {
	var (
		v   T
		err error
	)
	for i := 0; i < n; i++ {
		v, err = fn()
		if err == nil {
			return v, nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return v, fmt.Errorf("after %d attempts: %w", n, err)
}

// Team is a group of users.
type Team struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// GetTeam reads a team.
func (c *Client) GetTeam(ctx context.Context, id string) (Team, error) {
	return retry(ctx, 3, func() (Team, error) {
		var t Team
		err := c.getJSON(ctx, "/v2/teams/"+id, &t)
		return t, err
	})
}

// CreateTeam creates a team.
func (c *Client) CreateTeam(ctx context.Context, t Team) (*http.Response, error) {
	body, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	return retry(ctx, 3, func() (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+"/v2/teams", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		return c.HTTP.Do(req)
	})
}

// loadOverrides reads the local overrides file, which an agent rewrites
// now and then.
func loadOverrides(ctx context.Context, path string) (map[string]bool, error) {
	return retry(ctx, 3, func() (map[string]bool, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var m map[string]bool
		err = json.Unmarshal(b, &m)
		return m, err
	})
}
