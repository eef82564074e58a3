package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// short is the scenario on a short horizon; small is a tenth of it, for
// tests of the tool's machinery (a latched policy costs the most to run).
var (
	short = []string{"-horizon", "13s", "-stall-at", "1s"}
	small = []string{"-horizon", "8s", "-stall-at", "1s", "-workers", "10", "-clients", "40", "-max-tokens", "100"}
)

func runTool(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestJSON(t *testing.T) {
	code, out, errOut := runTool(t, append(small, "-json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Policies []map[string]json.RawMessage `json:"policies"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("output is not the JSON document: %v\n%s", err, out)
	}
	var top map[string]json.RawMessage
	_ = json.Unmarshal([]byte(out), &top)
	if len(top) != 2 || top["scenario"] == nil {
		t.Errorf("top-level keys %v, want scenario and policies", keys(top))
	}
	var sc map[string]float64
	if err := json.Unmarshal(top["scenario"], &sc); err != nil {
		t.Fatalf("scenario: %v", err)
	}
	for _, k := range []string{"pods", "per_pod_rate", "capacity", "stall_start_seconds", "stall_seconds", "attempt_timeout_seconds", "seed"} {
		if _, ok := sc[k]; !ok {
			t.Errorf("scenario lacks %q: %s", k, top["scenario"])
		}
	}
	if sc["pods"] <= 0 || sc["per_pod_rate"] <= 0 || sc["capacity"] <= 0 {
		t.Errorf("scenario %s", top["scenario"])
	}
	byName := map[string]map[string]json.RawMessage{}
	for _, p := range doc.Policies {
		for _, k := range []string{"name", "peak_amplification", "mean_amplification", "recovery_seconds", "goodput"} {
			if _, ok := p[k]; !ok {
				t.Errorf("policy %s lacks %q", p["name"], k)
			}
		}
		var n string
		_ = json.Unmarshal(p["name"], &n)
		byName[n] = p
	}
	for _, n := range []string{"naive", "backoff", "jitter", "budget", "budget+breaker", "shedding", "shedding+budget"} {
		if byName[n] == nil {
			t.Errorf("no policy %q in %v", n, keys(byName))
		}
	}
}

// The acceptance, on the scenario's scale: naive clients latch
// (recovery_seconds null), the shedding server brings the same clients
// back within 5 s of the stall's end.
func TestJSONShedding(t *testing.T) {
	code, out, errOut := runTool(t, append(short, "-json", "-policies", "naive,shedding")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Policies []map[string]json.RawMessage `json:"policies"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	byName := map[string]map[string]json.RawMessage{}
	for _, p := range doc.Policies {
		var n string
		_ = json.Unmarshal(p["name"], &n)
		byName[n] = p
	}
	if got := string(byName["naive"]["recovery_seconds"]); got != "null" {
		t.Errorf("naive recovery_seconds = %s, want null (latched)", got)
	}
	var rec *float64
	if err := json.Unmarshal(byName["shedding"]["recovery_seconds"], &rec); err != nil || rec == nil || *rec > 5 {
		t.Errorf("shedding recovery_seconds = %s, want a number <= 5", byName["shedding"]["recovery_seconds"])
	}
}

func keys[V any](m map[string]V) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

func TestTableAndSVG(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "storm.svg")
	code, out, errOut := runTool(t, append(small, "-policies", "naive,budget", "-svg", svg)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"policy", "peak load", "naive", "budget", "latched", "adaptive budget + full jitter"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(svg)
	if err != nil || !bytes.HasPrefix(b, []byte("<svg")) {
		t.Errorf("SVG not written: %v", err)
	}
}

func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-clients", "0"}, 2, "clients"},
		{[]string{"-clients", "many"}, 2, "invalid value"},
		{[]string{"-nope"}, 2, "not defined"},
		{[]string{"-policies", "naive,yolo"}, 2, `unknown policy "yolo"`},
		{[]string{"-timeout", "-1s"}, 2, "timeout"},
		{[]string{"-horizon", "3s"}, 2, "horizon"},
		{[]string{"-max-tokens", "NaN"}, 2, "maxTokens"},
		{[]string{"-step", "7ms"}, 2, "step"},
		{[]string{"extra"}, 2, "unexpected argument"},
		{append(small, "-policies", "budget", "-svg", filepath.Join(t.TempDir(), "missing", "x.svg")), 1, "no such file"},
	} {
		code, _, errOut := runTool(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	if code, _, _ := runTool(t, "-h"); code != 0 {
		t.Errorf("-h: exit %d, want 0", code)
	}
}
