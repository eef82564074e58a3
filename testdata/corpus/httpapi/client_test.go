package httpapi

import (
	"net/http"
	"testing"
	"time"
)

// waitForServer is the test helper that hammers a server until it is up.
func waitForServer(t *testing.T, u string) {
	t.Helper()
	for i := 0; i < 50; i++ {
		resp, err := http.Get(u)
		if err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("server at %s never came up", u)
}

// TestClosedPortFails expects every attempt to fail.
func TestClosedPortFails(t *testing.T) {
	for i := 0; i < 3; i++ {
		resp, err := http.Get("http://127.0.0.1:1/")
		if err == nil {
			resp.Body.Close()
			t.Fatal("expected connection refused")
		}
	}
}

func TestServerUp(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a server")
	}
	waitForServer(t, "http://127.0.0.1:8080/healthz")
}

// TestEndpoints checks each endpoint once (a table loop).
func TestEndpoints(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a server")
	}
	for _, u := range []string{"http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b"} {
		resp, err := http.Get(u)
		if err != nil {
			t.Errorf("GET %s: %v", u, err)
			continue
		}
		resp.Body.Close()
	}
}
