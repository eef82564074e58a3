// Command retrystorm replays the retry storm of the Retry Budget pattern in
// a deterministic simulation and compares retry policies: naive immediate
// retries, exponential backoff without jitter, full jitter alone, a retry
// budget with full jitter, budget + jitter + circuit breaker, and a
// shedding server (shed.Guard's admission core) with naive or budgeted
// clients.
//
// Usage:
//
//	retrystorm [flags]
//
// By default it prints a table; -json prints
// {"policies":[{"name":…,"peak_amplification":…,"mean_amplification":…,
// "recovery_seconds":…|null,"goodput":…,…},…]} and -svg FILE writes a plot
// of the load over time. The model and its parameters are described in the
// documentation of package internal/storm and printed by -h.
//
// Exit status: 0 on success, 2 for bad flags, 1 when the plot cannot be
// written.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/retrylint/retrylint/budget/tools/internal/storm"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg := storm.DefaultConfig()
	fs := flag.NewFlagSet("retrystorm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of every random draw (same seed, same output)")
	fs.IntVar(&cfg.Clients, "clients", cfg.Clients, "number of callers")
	fs.IntVar(&cfg.Pods, "pods", cfg.Pods, "processes the callers are spread over, each with one budget and one breaker (0: one per caller, the seed's 400 pods)")
	fs.Float64Var(&cfg.Load, "load", cfg.Load, "base demand as a fraction of the server's capacity")
	fs.IntVar(&cfg.Workers, "workers", cfg.Workers, "server workers (requests served in parallel)")
	fs.DurationVar(&cfg.ServiceTime, "service", cfg.ServiceTime, "mean service time per request (exponential); capacity = workers/service")
	fs.IntVar(&cfg.QueueLimit, "queue", cfg.QueueLimit, "plain server's FIFO queue length; arrivals beyond it are refused at once")
	fs.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "client per-attempt timeout")
	fs.IntVar(&cfg.Attempts, "attempts", cfg.Attempts, "ceiling on attempts per call, for every policy (but no-retry); 1 makes every policy a no-retry baseline")
	fs.Float64Var(&cfg.FailRate, "fail-rate", cfg.FailRate, "share of served requests that fail anyway (background transient errors)")
	fs.DurationVar(&cfg.StallAt, "stall-at", cfg.StallAt, "when the server stalls")
	fs.DurationVar(&cfg.StallFor, "stall", cfg.StallFor, "how long the server stalls")
	fs.DurationVar(&cfg.Horizon, "horizon", cfg.Horizon, "simulated time")
	fs.DurationVar(&cfg.Step, "step", cfg.Step, "resolution of the series (a divisor of 1s)")
	fs.Float64Var(&cfg.MaxTokens, "max-tokens", cfg.MaxTokens, "grpc-budget and grpc-shared: maxTokens (retries stop at half)")
	fs.Float64Var(&cfg.TokenRatio, "token-ratio", cfg.TokenRatio, "grpc-budget and grpc-shared: tokens earned per success")
	fs.Float64Var(&cfg.MinRetryRate, "min-retry-rate", cfg.MinRetryRate, "budget policies: unearned retries per second each pod's adaptive budget allows (its floor)")
	fs.IntVar(&cfg.GuardQueue, "guard-queue", cfg.GuardQueue, "shedding server: queue length (0: as many as workers)")
	fs.DurationVar(&cfg.GuardQueueWait, "guard-wait", cfg.GuardQueueWait, "shedding server: longest wait in its queue")
	fs.Float64Var(&cfg.GuardRatio, "guard-ratio", cfg.GuardRatio, "shedding server: admitted retries / first tries")
	policies := fs.String("policies", "", "comma-separated policies to run (default all: "+names()+")")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	svg := fs.String("svg", "", "write a plot of load and goodput over time to this SVG file")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "retrystorm: unexpected argument %q (all settings are flags; see -h)\n", fs.Arg(0))
		return 2
	}
	ps, err := selectPolicies(*policies)
	if err != nil {
		fmt.Fprintln(stderr, "retrystorm:", err)
		return 2
	}
	if err := cfg.Validate(); err != nil {
		fmt.Fprintln(stderr, "retrystorm:", strings.TrimPrefix(err.Error(), "storm: "))
		return 2
	}
	results, err := storm.RunAll(cfg, ps)
	if err != nil {
		fmt.Fprintln(stderr, "retrystorm:", err)
		return 1
	}
	if *svg != "" {
		if err := writeSVG(*svg, cfg, results); err != nil {
			fmt.Fprintln(stderr, "retrystorm:", err)
			return 1
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Scenario scenario       `json:"scenario"`
			Policies []storm.Result `json:"policies"`
		}{newScenario(cfg), results}); err != nil {
			fmt.Fprintln(stderr, "retrystorm:", err)
			return 1
		}
		return 0
	}
	printTable(stdout, cfg, results)
	return 0
}

// scenario is the drill a -json result was run on, recorded beside the
// policies so that the numbers carry their conditions.
type scenario struct {
	Pods                  int     `json:"pods"`
	Clients               int     `json:"clients"`
	PerPodRate            float64 `json:"per_pod_rate"` // requests per second of one pod
	Capacity              float64 `json:"capacity"`     // requests per second the server can do
	Load                  float64 `json:"load"`         // base demand ÷ capacity
	StallStartSeconds     float64 `json:"stall_start_seconds"`
	StallSeconds          float64 `json:"stall_seconds"`
	AttemptTimeoutSeconds float64 `json:"attempt_timeout_seconds"`
	Attempts              int     `json:"attempts"`
	HorizonSeconds        float64 `json:"horizon_seconds"`
	FailRate              float64 `json:"fail_rate"`
	MinRetryRate          float64 `json:"min_retry_rate"`
	Seed                  uint64  `json:"seed"`
}

func newScenario(c storm.Config) scenario {
	pods := c.PodCount()
	return scenario{
		Pods: pods, Clients: c.Clients, PerPodRate: c.Demand() / float64(pods),
		Capacity: c.Capacity(), Load: c.Load,
		StallStartSeconds: c.StallAt.Seconds(), StallSeconds: c.StallFor.Seconds(),
		AttemptTimeoutSeconds: c.Timeout.Seconds(), Attempts: c.Attempts,
		HorizonSeconds: c.Horizon.Seconds(), FailRate: c.FailRate,
		MinRetryRate: c.MinRetryRate, Seed: c.Seed,
	}
}

const usage = `usage: retrystorm [flags]

Replays a retry storm on a virtual clock. Callers issue Poisson calls
totalling -load x capacity; the server (-workers in parallel, -service mean
time each, a FIFO of -queue) makes no progress for -stall from -stall-at and
keeps working on requests whose callers gave up. Attempts time out after
-timeout and each policy retries them with the real budget.Adaptive or
TokenBucket, Backoff and Breaker (callers in one of -pods processes share one of each; by default
every caller is a pod of its own); the shedding server is shed.Guard's
admission core. -fail-rate adds background failures. Same flags and seed,
same output.

load      server arrivals over the trailing second / base demand
goodput   successful calls from the stall's start to -horizon / base demand
recovery  seconds from the stall's end until load <= 1.2x and >= 95% of calls
          succeed for good (with at least 5 s of horizon left), else latched

Flags:
`

func names() string {
	var n []string
	for _, p := range storm.Policies() {
		n = append(n, p.Name)
	}
	return strings.Join(n, ",")
}

func selectPolicies(list string) ([]storm.Policy, error) {
	if strings.TrimSpace(list) == "" {
		return storm.Policies(), nil
	}
	var ps []storm.Policy
	seen := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		p, ok := storm.PolicyByName(n)
		if !ok {
			return nil, fmt.Errorf("unknown policy %q (known: %s)", n, names())
		}
		if !seen[n] {
			seen[n] = true
			ps = append(ps, p)
		}
	}
	return ps, nil
}

func writeSVG(path string, cfg storm.Config, rs []storm.Result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := storm.WriteSVG(f, cfg, rs); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func printTable(w io.Writer, cfg storm.Config, rs []storm.Result) {
	fmt.Fprintf(w, "%d callers in %d process(es); base demand %.0f req/s = %.0f%% of %.0f req/s (%d workers, %v mean service); queue %d\n",
		cfg.Clients, cfg.PodCount(), cfg.Demand(), cfg.Load*100, cfg.Capacity(), cfg.Workers, cfg.ServiceTime, cfg.QueueLimit)
	fmt.Fprintf(w, "timeout %v per attempt, at most %d attempts; stall %v at t=%v; horizon %v; seed %d\n",
		cfg.Timeout, cfg.Attempts, cfg.StallFor, cfg.StallAt, cfg.Horizon, cfg.Seed)
	fmt.Fprintf(w, "load = server arrivals over 1s / base demand; recovered = load <= %.1fx and >= %.0f%% of calls succeed from then on\n\n",
		storm.HealthyLoad, storm.HealthySuccess*100)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "policy\tpeak load\tmean load\tstall+5s load\trecovery\tgoodput\tretries\twasted work\tshed")
	for _, r := range rs {
		rec := "latched"
		if r.RecoverySeconds != nil {
			rec = fmt.Sprintf("%.1fs", *r.RecoverySeconds)
		}
		fmt.Fprintf(tw, "%s\t%.2fx\t%.2fx\t%.2fx\t%s\t%.1f%%\t%d\t%.1f%%\t%d\n",
			r.Name, r.PeakAmplification, r.MeanAmplification, r.StallAmplification, rec, r.Goodput*100, r.Retries, r.WastedWork*100, r.Shed)
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, r := range rs {
		fmt.Fprintf(w, "  %-16s %s\n", r.Name, r.Description)
	}
}
