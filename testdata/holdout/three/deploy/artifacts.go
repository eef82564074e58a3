package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// UploadArtifact stores one build artifact of a release. PUT is
// idempotent: a repeated upload replaces the same object.
func (c *Client) UploadArtifact(ctx context.Context, releaseID, name string, data []byte) error {
	path := "/v1/releases/" + releaseID + "/artifacts/" + url.PathEscape(name)
	seq := budget.Backoff{Base: 200 * time.Millisecond, Cap: 5 * time.Second}.Start()
	for attempt := 1; ; attempt++ {
		req, err := c.newRequest(ctx, http.MethodPut, path, bytes.NewReader(data))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/octet-stream")
		req.ContentLength = int64(len(data))
		resp, err := c.hc.Do(req)
		if err == nil {
			err = checkResponse(resp)
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		c.budget.Record(err)
		switch {
		case err == nil:
			return nil
		case !retryable(err), attempt >= maxAttempts, !c.budget.Allow():
			return fmt.Errorf("upload %s: %w", name, err)
		}
		if err := budget.Sleep(ctx, seq.Next()); err != nil {
			return fmt.Errorf("upload %s: %w", name, err)
		}
	}
}

// NotifyChat posts a deploy notice to a chat webhook.
func NotifyChat(webhookURL, text string) error {
	msg, _ := json.Marshal(map[string]string{"text": text})
	var lastErr error
	for i := 0; i < 3; i++ {
		resp, err := http.Post(webhookURL, "application/json", bytes.NewReader(msg))
		if err != nil {
			lastErr = err
			time.Sleep(2 * time.Second)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		lastErr = fmt.Errorf("chat webhook: %s", resp.Status)
		time.Sleep(2 * time.Second)
	}
	return lastErr
}

// RegisterBuild tells the API about a CI build so releases can refer to it.
func (c *Client) RegisterBuild(commit, branch string) error {
	form := url.Values{"commit": {commit}, "branch": {branch}}
	var err error
	for attempt := range 4 {
		var resp *http.Response
		resp, err = c.hc.PostForm(c.base+"/v1/builds", form)
		if err == nil {
			err = checkResponse(resp)
			resp.Body.Close()
			if err == nil {
				return nil
			}
		}
		// back off: 250ms, 500ms, 1s, 2s
		time.Sleep(time.Duration(1<<attempt) * 250 * time.Millisecond)
	}
	return fmt.Errorf("register build %s: %w", commit, err)
}

// fetchToken exchanges the client credentials for a short-lived access token.
func (c *Client) fetchToken(ctx context.Context) (string, error) {
	form := url.Values{"grant_type": {"client_credentials"}}
	tries := 0
retry:
	req, err := c.newRequest(ctx, http.MethodPost, "/oauth/token", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.hc.Do(req)
	if err != nil {
		tries++
		if tries < 3 {
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(time.Duration(rand.Int64N(int64(time.Second)))):
			}
			goto retry
		}
		return "", fmt.Errorf("token: %w", err)
	}
	defer resp.Body.Close()
	if err := checkResponse(resp); err != nil {
		return "", err
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.AccessToken, nil
}

// Login replaces the client's token with a fresh access token.
func (c *Client) Login(ctx context.Context) error {
	tok, err := c.fetchToken(ctx)
	if err != nil {
		return err
	}
	c.token = tok
	return nil
}
