package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Token is an OAuth2 access token.
type Token struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
	expiry      time.Time
}

// TokenSource fetches client-credentials tokens and caches them.
type TokenSource struct {
	TokenURL     string
	ClientID     string
	ClientSecret string

	hc  *http.Client
	mu  sync.Mutex
	tok *Token
}

// NewTokenSource returns a TokenSource whose requests time out after 5 s.
func NewTokenSource(tokenURL, id, secret string) *TokenSource {
	return &TokenSource{TokenURL: tokenURL, ClientID: id, ClientSecret: secret, hc: &http.Client{Timeout: 5 * time.Second}}
}

// refresh fetches a new token.
func (ts *TokenSource) refresh(ctx context.Context) (*Token, error) {
	form := url.Values{
		"grant_type":    {"client_credentials"},
		"client_id":     {ts.ClientID},
		"client_secret": {ts.ClientSecret},
	}
	var lastErr error
	for attempt := 1; attempt <= 3; attempt++ {
		resp, err := ts.hc.PostForm(ts.TokenURL, form)
		if err == nil {
			var tok Token
			err = json.NewDecoder(resp.Body).Decode(&tok)
			resp.Body.Close()
			if err == nil && tok.AccessToken != "" {
				tok.expiry = time.Now().Add(time.Duration(tok.ExpiresIn) * time.Second)
				return &tok, nil
			}
			if err == nil {
				err = fmt.Errorf("oauth: HTTP %d without a token", resp.StatusCode)
			}
		}
		lastErr = err
		// Linear backoff: 200ms, 400ms.
		time.Sleep(time.Duration(attempt) * 200 * time.Millisecond)
	}
	return nil, fmt.Errorf("oauth: refresh: %w", lastErr)
}

// Token returns a valid token, refreshing it if needed.
func (ts *TokenSource) Token(ctx context.Context) (*Token, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.tok != nil && time.Until(ts.tok.expiry) > time.Minute {
		return ts.tok, nil
	}
	tok, err := ts.refresh(ctx)
	if err != nil {
		return nil, err
	}
	ts.tok = tok
	return tok, nil
}

// AutoRefresh keeps the cached token fresh until ctx is done. After a
// failed refresh it tries again after a short random pause.
func (ts *TokenSource) AutoRefresh(ctx context.Context) {
	wait := time.Duration(0)
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		tok, err := ts.refresh(ctx)
		if err != nil {
			log.Printf("oauth: background refresh: %v", err)
			wait = budget.Jitter(5 * time.Second)
			continue
		}
		ts.mu.Lock()
		ts.tok = tok
		ts.mu.Unlock()
		wait = time.Until(tok.expiry) - time.Minute
	}
}
