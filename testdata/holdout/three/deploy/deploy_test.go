package deploy

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// eventually polls cond until it holds or a second has passed.
func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition never held")
}

func TestCreateReleaseRetriesOn503(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) < 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, `{"id":"rel-1"}`)
	}))
	defer srv.Close()

	c := NewClient(srv.URL, "test-token")
	id, err := c.CreateRelease(context.Background(), ReleaseSpec{App: "web", Version: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	if id != "rel-1" {
		t.Fatalf("id = %q, want rel-1", id)
	}
	eventually(t, func() bool { return calls.Load() == 2 })
}
