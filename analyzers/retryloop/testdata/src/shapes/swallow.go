package shapes

import (
	"context"
	"log"
	"net/http"
	"time"
)

// Watchers whose round is a call of a function that, when its request
// fails, logs, waits and returns: the error branch of the consume loop
// lives in the callee, and its wait is the wait between attempts.

type watcher struct {
	url      string
	every    time.Duration
	failures int
}

func (w *watcher) run(ctx context.Context) {
	t := time.NewTicker(w.every)
	defer t.Stop()
	for { // want `retry site: shape=bare consume bound=deadline delay=fixed jitter=no ctx=caller consulted remote`
		select {
		case <-ctx.Done():
			return
		default:
			w.refresh(ctx)
			<-t.C
		}
	}
}

func (w *watcher) refresh(ctx context.Context) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.url, nil)
	if err != nil {
		return
	}
	resp, err := http.DefaultClient.Do(req)
	select {
	case <-ctx.Done():
		return
	default:
	}
	if err != nil {
		log.Printf("refresh: %v", err)
		time.Sleep(15 * time.Second)
		return
	}
	resp.Body.Close()
}

func (w *watcher) runBackoff(stop chan struct{}) {
	for { // want `retry site: shape=bare consume bound=none delay=growing jitter=no ctx=none consulted remote attempts=unbounded`
		select {
		case <-stop:
			return
		default:
		}
		w.poll()
	}
}

func (w *watcher) poll() {
	resp, err := http.Get(w.url)
	if err != nil {
		time.Sleep(time.Second << w.failures)
		w.failures++
		return
	}
	w.failures = 0
	resp.Body.Close()
	time.Sleep(w.every)
}

// Look-alikes.

// The callee waits after success as after failure: its own pace.
func (w *watcher) runPaced(ctx context.Context) {
	for ctx.Err() == nil {
		w.paced()
	}
}

func (w *watcher) paced() {
	resp, err := http.Get(w.url)
	if err == nil {
		resp.Body.Close()
	}
	time.Sleep(w.every)
}

// The callee hands its failure back: judged as any operation.
func (w *watcher) runReported(ctx context.Context) {
	t := time.NewTicker(w.every)
	defer t.Stop()
	for range t.C {
		if err := w.reported(); err != nil {
			log.Print(err)
		}
	}
}

func (w *watcher) reported() error {
	resp, err := http.Get(w.url)
	if err != nil {
		time.Sleep(time.Second)
		return err
	}
	return resp.Body.Close()
}

// One failure of the callee leaves at once: the rounds after a failure
// do not all wait.
func (w *watcher) runMixed(ctx context.Context) {
	for ctx.Err() == nil {
		w.mixed(ctx)
	}
}

func (w *watcher) mixed(ctx context.Context) {
	resp, err := http.Get(w.url)
	if err != nil {
		time.Sleep(time.Second)
		return
	}
	defer resp.Body.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.url+"/more", nil)
	if err != nil {
		return
	}
	resp2, err := http.DefaultClient.Do(req)
	if err != nil {
		return
	}
	resp2.Body.Close()
}

// Each round refreshes another target: failover, not a retry.
func (w *watcher) runAll(targets []*watcher) {
	for i := 0; i < len(targets); i++ {
		targets[i].refresh(context.Background())
	}
}

// Started in a goroutine each round: nothing waits in the loop.
func (w *watcher) runSpawn(ctx context.Context) {
	for ctx.Err() == nil {
		go w.refresh(ctx)
		time.Sleep(w.every)
	}
}
