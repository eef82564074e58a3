package storm

import (
	"bytes"
	"encoding/xml"
	"reflect"
	"strings"
	"testing"
	"time"
)

// testConfig is the default scenario on a shorter horizon: long enough to
// see a recovery within 5 s of the stall's end confirmed for 5 s more.
func testConfig() Config {
	cfg := DefaultConfig()
	cfg.StallAt = 1 * time.Second
	cfg.Horizon = 13 * time.Second
	return cfg
}

// smallConfig is a tenth of the scenario, for tests of the machinery.
func smallConfig() Config {
	cfg := testConfig()
	cfg.Workers /= 10
	cfg.Clients /= 10
	cfg.MaxTokens /= 10
	cfg.Horizon = 8 * time.Second
	return cfg
}

func run(t *testing.T, cfg Config, name string) Result {
	t.Helper()
	p, ok := PolicyByName(name)
	if !ok {
		t.Fatalf("no policy %q", name)
	}
	r, err := Run(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	rec := "latched"
	if r.RecoverySeconds != nil {
		rec = time.Duration(*r.RecoverySeconds * float64(time.Second)).String()
	}
	t.Logf("%-16s peak %.2fx mean %.2fx recovery %s goodput %.3f retries %d wasted %.3f shed %d",
		r.Name, r.PeakAmplification, r.MeanAmplification, rec, r.Goodput, r.Retries, r.WastedWork, r.Shed)
	return r
}

// The goals of issue 14 on the default run (the seed's topology: 400 pods,
// each with its own budget and breaker): naive retries amplify the load at
// least 3x and latch; the library's default policy stays within 1.2x,
// recovers within 3 s of the stall's end, and under 1% background failures
// delivers at least the goodput of not retrying at all. A shedding server
// in front of naive clients recovers within 5 s.
func TestAcceptance(t *testing.T) {
	cfg := DefaultConfig()
	naive := run(t, cfg, "naive")
	if naive.PeakAmplification < 3 {
		t.Errorf("naive: peak amplification %.2f, want >= 3", naive.PeakAmplification)
	}
	if !naive.Latched() {
		t.Errorf("naive: recovered after %.1fs, want latched", *naive.RecoverySeconds)
	}
	if naive.Goodput > 0.2 {
		t.Errorf("naive: goodput %.3f, want collapsed (< 0.2)", naive.Goodput)
	}

	b := run(t, cfg, "budget")
	if b.PeakAmplification > 1.2 {
		t.Errorf("budget: peak amplification %.2f, want <= 1.2", b.PeakAmplification)
	}
	if b.Latched() || *b.RecoverySeconds > 3 {
		t.Errorf("budget: recovery %v, want within 3s of the stall's end", b.RecoverySeconds)
	}

	// The budget a fixed 1000-token bucket per pod would be: it never
	// drains in a 2 s stall, so the fleet latches as if it had none.
	g := run(t, cfg, "grpc-budget")
	if !g.Latched() {
		t.Errorf("grpc-budget: recovered after %.1fs; the per-pod 1000-token bucket was expected to latch", *g.RecoverySeconds)
	}

	shed := run(t, cfg, "shedding")
	if shed.Latched() || *shed.RecoverySeconds > 5 {
		t.Errorf("shedding: recovery %v, want within 5s of the stall's end", shed.RecoverySeconds)
	}
	if shed.Goodput < 3*naive.Goodput || shed.Goodput < 0.5 {
		t.Errorf("shedding: goodput %.3f, want far above naive's %.3f", shed.Goodput, naive.Goodput)
	}

	cfg.FailRate = 0.01
	none := run(t, cfg, "no-retry")
	bf := run(t, cfg, "budget")
	if bf.Goodput < none.Goodput {
		t.Errorf("1%% background failures: budget goodput %.4f below no-retry's %.4f", bf.Goodput, none.Goodput)
	}
	if bf.PeakAmplification > 1.2 || bf.Latched() || *bf.RecoverySeconds > 3 {
		t.Errorf("1%% background failures: budget peak %.2f recovery %v, want <= 1.2x within 3s", bf.PeakAmplification, bf.RecoverySeconds)
	}
}

// The floor of the adaptive budget is per process: at Finagle's 10
// unearned retries a second, 400 pods send 4000 a second into the stall,
// and the fleet latches as if it had no budget; one a second still
// recovers, later than the default's one every 5 s.
func TestFloorPerProcess(t *testing.T) {
	cfg := DefaultConfig()
	def := run(t, cfg, "budget")
	cfg.MinRetryRate = 1
	one := run(t, cfg, "budget")
	if one.Latched() || *one.RecoverySeconds <= *def.RecoverySeconds || one.Retries <= def.Retries {
		t.Errorf("floor 1/s: recovery %v after %d retries, want later than the default's %.1fs after %d",
			one.RecoverySeconds, one.Retries, *def.RecoverySeconds, def.Retries)
	}
	cfg.MinRetryRate = 10
	if r := run(t, cfg, "budget"); !r.Latched() {
		t.Errorf("floor 10/s: recovered after %.1fs, want latched", *r.RecoverySeconds)
	}
}

// Background failures without a stall: retries are what buys the goodput
// back, and the budget lets all of them through.
func TestBackgroundFailuresRetried(t *testing.T) {
	cfg := testConfig()
	cfg.StallFor = 0
	cfg.Horizon = 8 * time.Second
	cfg.FailRate = 0.05
	none := run(t, cfg, "no-retry")
	b := run(t, cfg, "budget")
	if none.Goodput > 0.96 {
		t.Errorf("no-retry goodput %.3f with 5%% failures, want about 0.95", none.Goodput)
	}
	if b.Goodput < 0.98 || b.Goodput < none.Goodput+0.025 {
		t.Errorf("budget goodput %.4f with 5%% failures, want nearly all calls to succeed", b.Goodput)
	}
	if b.PeakAmplification > 1.1 {
		t.Errorf("budget peak %.2f with 5%% failures, want about 1.05x", b.PeakAmplification)
	}
}

// The stall is what latches the naive fleet: without it the same clients
// and server run at base demand and every call succeeds.
func TestNoStallNoStorm(t *testing.T) {
	cfg := testConfig()
	cfg.Horizon = 5 * time.Second
	cfg.StallFor = 0
	r := run(t, cfg, "naive")
	if r.PeakAmplification > 1.1 || r.Goodput < 0.97 || r.Retries > 0 {
		t.Errorf("naive without a stall: peak %.2f goodput %.3f retries %d, want ~1x, ~100%%, 0",
			r.PeakAmplification, r.Goodput, r.Retries)
	}
}

func TestDeterministic(t *testing.T) {
	cfg := smallConfig()
	for _, name := range []string{"jitter", "shedding+budget", "budget+breaker"} {
		p, _ := PolicyByName(name)
		a, _ := Run(cfg, p)
		b, _ := Run(cfg, p)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs with seed %d differ", name, cfg.Seed)
		}
	}
	p, _ := PolicyByName("jitter")
	a, _ := Run(cfg, p)
	cfg.Seed++
	b, _ := Run(cfg, p)
	if reflect.DeepEqual(a.Series, b.Series) {
		t.Error("different seeds gave the same series")
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		mut  func(*Config)
		want string
	}{
		{"clients", func(c *Config) { c.Clients = 0 }, "clients"},
		{"pods", func(c *Config) { c.Pods = 500 }, "pods"},
		{"load", func(c *Config) { c.Load = -1 }, "load"},
		{"timeout", func(c *Config) { c.Timeout = 0 }, "timeout"},
		{"attempts", func(c *Config) { c.Attempts = 11 }, "attempts"},
		{"fail-rate", func(c *Config) { c.FailRate = 1 }, "fail-rate"},
		{"horizon", func(c *Config) { c.Horizon = time.Second }, "horizon"},
		{"step", func(c *Config) { c.Step = 300 * time.Millisecond }, "step"},
		{"tokens", func(c *Config) { c.MaxTokens = 0 }, "maxTokens"},
		{"ratio", func(c *Config) { c.GuardRatio = 0 }, "guard-ratio"},
		{"floor", func(c *Config) { c.MinRetryRate = -1 }, "minPerSecond"},
	} {
		cfg := DefaultConfig()
		tc.mut(&cfg)
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate() = %v, want an error naming %q", tc.name, err, tc.want)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("DefaultConfig: %v", err)
	}
}

func TestSVG(t *testing.T) {
	cfg := smallConfig()
	var ps []Policy
	for _, n := range []string{"naive", "budget", "budget+breaker"} {
		p, _ := PolicyByName(n)
		ps = append(ps, p)
	}
	rs, err := RunAll(cfg, ps)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, cfg, rs); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	lines := 0
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			lines++
		}
	}
	if lines != 2*len(rs) {
		t.Errorf("%d polylines, want %d (two panels × %d policies)", lines, 2*len(rs), len(rs))
	}
	for _, want := range []string{"time (s)", "base demand", "stall", "naive", "budget+breaker", "latched", "server capacity"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}
