// Command deployctl creates a release, uploads its artifacts and promotes it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"example.com/holdoutthree/deploy"
	"example.com/holdoutthree/netutil"
	"github.com/retrylint/retrylint/budget"
)

type config struct {
	API        string        `json:"api"`
	Token      string        `json:"token"`
	Workdir    string        `json:"workdir"`
	RetryDelay time.Duration `json:"retryDelay"`
}

// apiBudget is shared by deployctl's own calls to the API.
var apiBudget budget.Adaptive

// readConfig reads the config file. Editors that save by rename leave a
// short window where the file is missing, so a missing file is re-read.
func readConfig(path string) (config, error) {
	var cfg config
	var data []byte
	var err error
	for range 3 {
		data, err = os.ReadFile(path)
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		return cfg, fmt.Errorf("read config: %w", err)
	}
	err = json.Unmarshal(data, &cfg)
	return cfg, err
}

func run(ctx context.Context, cfg config, version string) error {
	client := deploy.NewClient(cfg.API, cfg.Token)

	if err := netutil.Retry(5, cfg.RetryDelay, func() error {
		return os.MkdirAll(filepath.Join(cfg.Workdir, "artifacts"), 0o755)
	}); err != nil {
		return err
	}
	if err := netutil.Retry(3, time.Second, func() error { return client.Ping(ctx) }); err != nil {
		return fmt.Errorf("api not reachable: %w", err)
	}
	host, _, _ := net.SplitHostPort(cfg.API)
	addrs, err := netutil.RetryBackoff(func() ([]string, error) {
		return net.DefaultResolver.LookupHost(ctx, host)
	})
	if err != nil {
		return err
	}
	log.Printf("api at %v", addrs)

	if err := client.Login(ctx); err != nil {
		return err
	}
	id, err := netutil.RetryValue(ctx, &apiBudget, 3, func(ctx context.Context) (string, error) {
		return client.CreateRelease(ctx, deploy.ReleaseSpec{App: "web", Version: version})
	})
	if err != nil {
		return err
	}
	if err := client.Promote(ctx, id, "staging"); err != nil {
		return err
	}
	return client.WaitForRollout(ctx, id)
}

func main() {
	configPath := flag.String("config", "deployctl.json", "config file")
	version := flag.String("version", "", "version to release")
	flag.Parse()
	cfg, err := readConfig(*configPath)
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg, *version); err != nil {
		log.Fatal(err)
	}
}
