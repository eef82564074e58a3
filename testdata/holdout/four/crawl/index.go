package crawl

// This file is a small client for the search cluster's HTTP API: the
// crawler indexes what it fetches.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Doc is one document to index.
type Doc struct {
	ID     string         `json:"-"`
	Fields map[string]any `json:"fields"`
}

// Hit is one search result.
type Hit struct {
	ID    string  `json:"_id"`
	Score float64 `json:"_score"`
}

// SearchResult is a page of hits.
type SearchResult struct {
	Hits     []Hit  `json:"hits"`
	ScrollID string `json:"scroll_id"`
}

// Index is one index of the cluster.
type Index struct {
	hc     *http.Client
	base   string // http://cluster:9200/products
	budget *budget.Adaptive
}

// NewIndex returns a client with a 20 s timeout per request.
func NewIndex(base string) *Index {
	return &Index{hc: &http.Client{Timeout: 20 * time.Second}, base: base, budget: new(budget.Adaptive)}
}

const bulkBatch = 500

// Bulk indexes docs in batches of bulkBatch.
func (ix *Index) Bulk(ctx context.Context, docs []Doc) error {
	for start := 0; start < len(docs); start += bulkBatch {
		end := min(start+bulkBatch, len(docs))
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		for _, d := range docs[start:end] {
			if err := enc.Encode(map[string]any{"index": map[string]string{"_id": d.ID}}); err != nil {
				return err
			}
			if err := enc.Encode(d.Fields); err != nil {
				return err
			}
		}
		if err := ix.sendBulk(ctx, buf.Bytes()); err != nil {
			return fmt.Errorf("bulk [%d:%d]: %w", start, end, err)
		}
	}
	return nil
}

func (ix *Index) sendBulk(ctx context.Context, body []byte) error {
	seq := budget.Backoff{Base: 200 * time.Millisecond}.Start()
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, ix.base+"/_bulk", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-ndjson")
		//retrylint:ignore retryidempotency every bulk action names its _id, so a replay overwrites the same documents
		resp, derr := ix.hc.Do(req)
		if derr == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			switch {
			case resp.StatusCode < 300:
				ix.budget.Record(nil)
				return nil
			case resp.StatusCode == http.StatusTooManyRequests, resp.StatusCode >= 500:
				derr = fmt.Errorf("bulk: status %d", resp.StatusCode)
			default:
				return fmt.Errorf("bulk: status %d", resp.StatusCode)
			}
		}
		err = derr
		ix.budget.RecordFailure()
		if !ix.budget.Allow() {
			break
		}
		if serr := budget.Sleep(ctx, seq.Next()); serr != nil {
			return serr
		}
	}
	return err
}

// Search runs a query and returns the first page.
func (ix *Index) Search(ctx context.Context, query map[string]any) (*SearchResult, error) {
	body, err := json.Marshal(map[string]any{"query": query})
	if err != nil {
		return nil, err
	}
	seq := budget.Backoff{}.Start()
	for attempt := range 3 {
		if attempt > 0 {
			if !ix.budget.Allow() {
				return nil, fmt.Errorf("search: retry budget exhausted: %w", err)
			}
			if err := budget.Sleep(ctx, seq.Next()); err != nil {
				return nil, err
			}
		}
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, ix.base+"/_search", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		var resp *http.Response
		resp, err = ix.hc.Do(req)
		ix.budget.Record(err)
		if err != nil {
			continue
		}
		var res SearchResult
		derr := json.NewDecoder(resp.Body).Decode(&res)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("search: status %d", resp.StatusCode)
		}
		return &res, derr
	}
	return nil, fmt.Errorf("search: %w", err)
}

// ErrScrollExpired is returned when the scroll context timed out.
var ErrScrollExpired = errors.New("search: scroll expired")

// ScrollAll calls fn for every hit of query, page by page.
func (ix *Index) ScrollAll(ctx context.Context, query map[string]any, fn func(Hit) error) error {
	page, err := ix.Search(ctx, query)
	if err != nil {
		return err
	}
	for len(page.Hits) > 0 {
		for _, h := range page.Hits {
			if err := fn(h); err != nil {
				return err
			}
		}
		page, err = ix.scroll(ctx, page.ScrollID)
		if err != nil {
			return err
		}
	}
	return nil
}

func (ix *Index) scroll(ctx context.Context, id string) (*SearchResult, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ix.base+"/_search/scroll?scroll=1m&scroll_id="+id, nil)
	if err != nil {
		return nil, err
	}
	resp, err := ix.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, ErrScrollExpired
	}
	var res SearchResult
	return &res, json.NewDecoder(resp.Body).Decode(&res)
}
