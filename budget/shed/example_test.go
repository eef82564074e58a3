package shed_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/shed"
)

// A Guard in front of a handler: it runs at most MaxConcurrent requests,
// queues a few more briefly, and sheds the rest at once with 503 and a
// Retry-After. A request whose caller's deadline has already passed never
// reaches the handler.
func ExampleGuard() {
	g := shed.New(shed.Config{
		MaxConcurrent: 8,
		MaxQueue:      8,
		MaxQueueWait:  200 * time.Millisecond, // below the callers' timeout
	})
	srv := httptest.NewServer(g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "ok")
	})))
	defer srv.Close()

	send := func(hdr map[string]string) {
		req, _ := http.NewRequest("GET", srv.URL, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		resp.Body.Close()
		fmt.Println(resp.StatusCode, "Retry-After set:", resp.Header.Get("Retry-After") != "")
	}
	send(nil)                                          // a first try
	send(map[string]string{budget.AttemptHeader: "1"}) // a retry, within the 20% (+10/s) allowance
	send(map[string]string{budget.TimeoutHeader: "0"}) // the caller has already given up

	s := g.Stats()
	fmt.Printf("admitted %d (retries %d), shed %d (expired %d)\n", s.Admitted, s.AdmittedRetries, s.Shed(), s.ShedExpired)
	// Output:
	// 200 Retry-After set: false
	// 200 Retry-After set: false
	// 503 Retry-After set: true
	// admitted 2 (retries 1), shed 1 (expired 1)
}
