package crawl

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestBulkBatchesAndRetries(t *testing.T) {
	var requests, lines atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == 1 {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		b, _ := io.ReadAll(r.Body)
		lines.Add(int32(bytes.Count(b, []byte("\n"))))
	}))
	defer srv.Close()
	ix := NewIndex(srv.URL + "/products")
	docs := make([]Doc, 1200) // IDs and fields do not matter to the server
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ix.Bulk(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if got := lines.Load(); got != 2400 {
		t.Fatalf("%d lines indexed, want 2400", got)
	}
	if got := requests.Load(); got != 4 {
		t.Fatalf("%d requests, want 4 (3 batches, one retried)", got)
	}
}

func TestSearch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"hits":[{"_id":"1","_score":2.5}],"scroll_id":"s1"}`)
	}))
	defer srv.Close()
	ix := NewIndex(srv.URL + "/products")
	res, err := ix.Search(context.Background(), map[string]any{"match_all": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].ID != "1" {
		t.Fatalf("hits %+v", res.Hits)
	}
}
