package etl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/retrylint/retrylint/budget"
)

func TestCheckpointRoundTrip(t *testing.T) {
	j := NewJob(nil, nil, filepath.Join(t.TempDir(), "cursor"))
	for _, c := range []string{"", "0001", "0999", "1000"} {
		if err := j.saveCheckpoint(c); err != nil {
			t.Fatal(err)
		}
		got, err := j.loadCheckpoint()
		if err != nil || got != c {
			t.Fatalf("loadCheckpoint = %q, %v; want %q", got, err, c)
		}
	}
}

func TestPostAdjustmentRetriesWithSameKey(t *testing.T) {
	var calls atomic.Int32
	keys := make(chan string, 3)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		keys <- r.Header.Get("Idempotency-Key")
		if calls.Add(1) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	p := &ProviderClient{HC: srv.Client(), Base: srv.URL, Budget: new(budget.Adaptive)}
	if err := p.PostAdjustment(context.Background(), Adjustment{ID: "d1-p1", PaymentID: "p1", Delta: 5}); err != nil {
		t.Fatal(err)
	}
	if a, b := <-keys, <-keys; a != b || a != "adj-d1-p1" {
		t.Fatalf("keys %q, %q", a, b)
	}
}

func TestCapture(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Idempotency-Key") == "" {
			w.WriteHeader(http.StatusBadRequest)
		}
	}))
	defer srv.Close()
	p := &ProviderClient{HC: srv.Client(), Base: srv.URL, Budget: new(budget.Adaptive)}
	if err := p.Capture("p1", 100); err != nil {
		t.Fatal(err)
	}
}
