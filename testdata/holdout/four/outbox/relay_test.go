package outbox

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func TestNotifyWebhookRetries5xx(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) < 3 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	r := NewRelay(nil, srv.URL, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.NotifyWebhook(ctx, Event{ID: "e1", Payload: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if got := calls.Load(); got != 3 {
		t.Fatalf("%d calls, want 3", got)
	}
}

func TestPublishSetsEventIDAsKey(t *testing.T) {
	keys := make(chan string, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		keys <- r.Header.Get("Idempotency-Key")
	}))
	defer srv.Close()
	r := NewRelay(nil, srv.URL, srv.URL)
	ev := Event{ID: "a", Topic: "orders"}
	if err := r.publish(context.Background(), ev); err != nil {
		t.Fatalf("publish %s: %v", ev.ID, err)
	}
	if k := <-keys; k != ev.ID {
		t.Fatalf("key %q, want %q", k, ev.ID)
	}
}

func TestPublishStopsOnPermanentError(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusBadRequest)
	}))
	defer srv.Close()
	r := NewRelay(nil, srv.URL, srv.URL)
	if err := r.publish(context.Background(), Event{ID: "x", Topic: "t"}); err == nil {
		t.Fatal("no error on 400")
	}
	if calls.Load() != 1 {
		t.Fatalf("%d calls, want 1", calls.Load())
	}
}
