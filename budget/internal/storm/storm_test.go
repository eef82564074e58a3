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

// The acceptance criteria of the simulation: naive retries amplify the load
// at least 3x and latch; a budget with full jitter stays within 1.2x and
// recovers within 5 s of the stall's end; a shedding server in front of the
// same naive clients recovers within 5 s too.
func TestAcceptance(t *testing.T) {
	cfg := testConfig()
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
	if b.Latched() || *b.RecoverySeconds > 5 {
		t.Errorf("budget: recovery %v, want within 5s of the stall's end", b.RecoverySeconds)
	}

	shed := run(t, cfg, "shedding")
	if shed.Latched() || *shed.RecoverySeconds > 5 {
		t.Errorf("shedding: recovery %v, want within 5s of the stall's end", shed.RecoverySeconds)
	}
	if shed.Goodput < 3*naive.Goodput || shed.Goodput < 0.5 {
		t.Errorf("shedding: goodput %.3f, want far above naive's %.3f", shed.Goodput, naive.Goodput)
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
		{"horizon", func(c *Config) { c.Horizon = time.Second }, "horizon"},
		{"step", func(c *Config) { c.Step = 300 * time.Millisecond }, "step"},
		{"tokens", func(c *Config) { c.MaxTokens = 0 }, "maxTokens"},
		{"ratio", func(c *Config) { c.GuardRatio = 0 }, "guard-ratio"},
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
	rs, err := RunAll(cfg, []Policy{Policies()[0], Policies()[3], Policies()[4]})
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
