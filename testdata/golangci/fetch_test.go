package retryfixture

import (
	"net/http"
	"testing"
	"time"
)

// waitReady polls a test server. Test files are analyzed unless an
// analyzer's tests setting is false.
func waitReady(t *testing.T, url string) {
	for i := 0; i < 10; i++ {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never became ready", url)
}

func TestWaitReady(t *testing.T) {
	if false {
		waitReady(t, "http://127.0.0.1:1")
	}
}
