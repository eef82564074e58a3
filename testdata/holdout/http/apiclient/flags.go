package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Flags is a snapshot of feature flags.
type Flags struct {
	Version int             `json:"version"`
	Values  map[string]bool `json:"values"`
}

// FlagFetcher reads feature flags from the flag service.
type FlagFetcher struct {
	URL    string
	Client *http.Client
}

func (f *FlagFetcher) fetch(ctx context.Context, sinceVersion int) (Flags, error) {
	u := f.URL + "/flags"
	if sinceVersion > 0 {
		// Long poll: the server holds the request until something changes.
		u += "?wait=30s&since=" + strconv.Itoa(sinceVersion)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return Flags{}, err
	}
	resp, err := f.Client.Do(req)
	if err != nil {
		return Flags{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Flags{}, fmt.Errorf("flags: HTTP %d", resp.StatusCode)
	}
	var fl Flags
	err = json.NewDecoder(resp.Body).Decode(&fl)
	return fl, err
}

// Load reads the flags once at startup.
func (f *FlagFetcher) Load() (Flags, error) {
	ctx := context.Background()
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		var fl Flags
		fl, err = f.fetch(ctx, 0)
		if err == nil {
			return fl, nil
		}
		log.Printf("flags: load attempt %d: %v", attempt+1, err)
		time.Sleep(250 * time.Millisecond)
	}
	return Flags{}, fmt.Errorf("flags: load: %w", err)
}

// Watch long-polls for flag changes and calls onChange with each new
// snapshot until ctx is done.
func (f *FlagFetcher) Watch(ctx context.Context, version int, onChange func(Flags)) error {
	seq := budget.Backoff{Base: 500 * time.Millisecond, Cap: 30 * time.Second}.Start()
	for {
		fl, err := f.fetch(ctx, version)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			log.Printf("flags: watch: %v", err)
			if err := budget.Sleep(ctx, seq.Next()); err != nil {
				return err
			}
			continue
		}
		seq = budget.Backoff{Base: 500 * time.Millisecond, Cap: 30 * time.Second}.Start()
		if fl.Version != version {
			version = fl.Version
			onChange(fl)
		}
	}
}
