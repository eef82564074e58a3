package a

import (
	"context"
	"log"
	"net/http"
	"time"
)

// A watch loop whose round calls a function that, on a failed request,
// logs, sleeps a constant and returns: the retry waits that constant.

type discovery struct{ url string }

func (d *discovery) run(ctx context.Context) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		default:
			d.watch(ctx) // want `retry waits a fixed delay`
			<-t.C
		}
	}
}

func (d *discovery) watch(ctx context.Context) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.url, nil)
	if err != nil {
		return
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Printf("watch: %v", err)
		time.Sleep(15 * time.Second)
		return
	}
	resp.Body.Close()
}

// Look-alike: the callee paces every round, failed or not.
func (d *discovery) runPaced(ctx context.Context) {
	for ctx.Err() == nil {
		d.paced(ctx)
	}
}

func (d *discovery) paced(ctx context.Context) {
	if err := get(ctx, d.url); err != nil {
		log.Print(err)
	}
	time.Sleep(time.Minute)
}
