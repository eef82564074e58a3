// Command ledgerd moves money: it consumes payment instructions from the
// queue and posts them to the ledger, or, with -batch, posts the transfers
// listed in a file and exits.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"example.com/ledgerclient/internal/ledger"
	"example.com/ledgerclient/internal/queue"
)

func main() {
	var (
		ledgers  = flag.String("ledger", "http://ledger-0:8080,http://ledger-1:8080", "comma-separated ledger replicas")
		queueURL = flag.String("queue", "http://queue:8080/v1/queues/payments", "payment instruction queue")
		workers  = flag.Int("workers", 8, "concurrent message handlers")
		batch    = flag.String("batch", "", "post the transfers in this file (one JSON object per line) and exit")
	)
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	lc, err := connect(ctx, strings.Split(*ledgers, ","), log)
	if err != nil {
		log.Error("connecting to the ledger", "err", err)
		os.Exit(1)
	}

	if *batch != "" {
		if err := postBatch(ctx, lc, *batch, os.Stdout); err != nil {
			log.Error("batch failed", "file", *batch, "err", err)
			os.Exit(1)
		}
		return
	}

	c := &queue.Consumer{
		Queue:   queue.NewClient(*queueURL, 10),
		Workers: *workers,
		Log:     log,
		Handle: func(ctx context.Context, m queue.Message) error {
			var t ledger.Transfer
			if err := json.Unmarshal(m.Body, &t); err != nil {
				log.Error("dropping malformed instruction", "id", m.ID, "err", err)
				return nil
			}
			t.Reference = m.ID
			_, err := lc.PostTransfer(ctx, t)
			return err
		},
	}
	if err := c.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		log.Error("consumer stopped", "err", err)
		os.Exit(1)
	}
}

// connect waits up to a minute for the ledger: in a fresh deployment it
// may come up after us.
func connect(ctx context.Context, endpoints []string, log *slog.Logger) (*ledger.Client, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	//retrylint:ignore retrybudget startup only: no traffic is served yet, and New already fails over across the replicas
	for attempt := 1; ; attempt++ {
		lc, err := ledger.New(ctx, endpoints)
		if err == nil {
			return lc, nil
		}
		log.Warn("ledger not reachable yet", "attempt", attempt, "err", err)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("ledger not reachable after %d attempts: %w", attempt, err)
		case <-time.After(time.Second + rand.N(time.Second)):
		}
	}
}

// postBatch posts every transfer in the file, waits for each to settle and
// writes one result line per transfer to w.
func postBatch(ctx context.Context, lc *ledger.Client, name string, w io.Writer) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()

	var transfers []ledger.Transfer
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		var t ledger.Transfer
		if err := json.Unmarshal([]byte(text), &t); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		transfers = append(transfers, t)
	}
	if err := sc.Err(); err != nil {
		return err
	}

	var failed int
	for _, t := range transfers {
		posted, err := lc.PostTransfer(ctx, t)
		if err == nil {
			posted, err = lc.AwaitSettlement(ctx, posted.ID)
		}
		if err != nil {
			failed++
			fmt.Fprintf(w, "FAIL %s -> %s %d: %v\n", t.From, t.To, t.Amount, err)
			continue
		}
		fmt.Fprintf(w, "%s %s %s -> %s %d\n", posted.Status, posted.ID, t.From, t.To, t.Amount)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d transfers failed", failed, len(transfers))
	}
	return nil
}
