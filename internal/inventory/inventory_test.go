package inventory_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/retrylint/retrylint/analyzers"
	"github.com/retrylint/retrylint/internal/inventory"
)

// layersDir is the GOPATH of retrynested's three-layer testdata:
// handler → client → transport, each retrying (3 × 4 × 3).
var layersDir, _ = filepath.Abs(filepath.Join("..", "..", "analyzers", "retrynested", "testdata"))

// load analyzes patterns of the GOPATH-style tree gopath with the whole
// suite, as the driver does, and returns the inventory.
func load(t *testing.T, gopath string, patterns ...string) *inventory.Inventory {
	t.Helper()
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax,
		Dir:   filepath.Join(gopath, "src"),
		Env:   append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOPROXY=off", "GOFLAGS="),
		Tests: true,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("packages do not load")
	}
	graph, err := checker.Analyze(inventory.Require(analyzers.All()), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(name string) string {
		r, _ := filepath.Rel(filepath.Join(gopath, "src"), name)
		return filepath.ToSlash(r)
	}
	return inventory.Build(graph, rel)
}

var layersOnce struct {
	sync.Once
	inv *inventory.Inventory
}

// layers returns the inventory of the three-layer testdata, loaded once:
// the tests only read it.
func layers(t *testing.T) *inventory.Inventory {
	layersOnce.Do(func() { layersOnce.inv = load(t, layersDir, "layers/...") })
	if layersOnce.inv == nil {
		t.Fatal("the layers testdata did not load")
	}
	return layersOnce.inv
}

// rowAt returns the row whose position starts with pos (file:line).
func rowAt(t *testing.T, inv *inventory.Inventory, pos string) *inventory.Row {
	t.Helper()
	for _, r := range inv.Sites {
		if strings.HasPrefix(r.Pos, pos+":") {
			return r
		}
	}
	t.Fatalf("no row at %s; rows: %v", pos, positions(inv))
	return nil
}

func positions(inv *inventory.Inventory) []string {
	var out []string
	for _, r := range inv.Sites {
		out = append(out, r.Pos)
	}
	return out
}

// TestLayers: the handler's row carries the three layers and 36; the
// client and transport are rows of their own.
func TestLayers(t *testing.T) {
	inv := layers(t)

	h := rowAt(t, inv, "layers/handler/handler.go:22")
	if h.WorstCase.Attempts != 36 || !h.WorstCase.Known || h.WorstCase.Chain != "3 × 4 × 3" {
		t.Errorf("handler worst case = %+v, want 3 × 4 × 3 = 36", h.WorstCase)
	}
	var got []string
	for _, l := range h.Layers {
		got = append(got, l.Function+"@"+l.Pos+"×"+l.Attempts.String())
	}
	want := []string{
		"handler.(*H).Handle@layers/handler/handler.go:22:2×3",
		"client.(*Client).Send@layers/client/client.go:17:2×4",
		"transport.(*T).RoundTrip@layers/transport/transport.go:17:2×3",
	}
	if !slices.Equal(got, want) {
		t.Errorf("handler layers:\n got %q\nwant %q", got, want)
	}
	if h.Risk.Level != "high" {
		t.Errorf("handler risk = %v, want high (three unbudgeted layers)", h.Risk)
	}

	c := rowAt(t, inv, "layers/client/client.go:17")
	if c.WorstCase.Text != "4 × 3 = up to 12" || len(c.Layers) != 2 {
		t.Errorf("client: %q, %d layers; want 4 × 3 = up to 12, 2 layers", c.WorstCase.Text, len(c.Layers))
	}
	tr := rowAt(t, inv, "layers/transport/transport.go:17")
	if tr.WorstCase.Text != "up to 3" || len(tr.Layers) != 1 || tr.Remote == nil || tr.Remote.Kind != "http" {
		t.Errorf("transport: %q, %d layers, remote %+v; want up to 3, 1 layer, http", tr.WorstCase.Text, len(tr.Layers), tr.Remote)
	}

	// Through a wrapper (client.Get returns RoundTrip's failure): the
	// wrapper holds no site, the layer is RoundTrip's.
	w := rowAt(t, inv, "layers/handler/handler.go:34")
	if w.WorstCase.Text != "2 × 3 = up to 6" || w.Layers[1].Function != "transport.(*T).RoundTrip" {
		t.Errorf("via wrapper: %q, layers %+v", w.WorstCase.Text, w.Layers)
	}
	// An unknown outer count: a lower bound, not a product.
	u := rowAt(t, inv, "layers/handler/handler.go:46")
	if u.WorstCase.Known || u.WorstCase.Text != "? × 4 × 3 = at least 12" {
		t.Errorf("unknown count: %+v", u.WorstCase)
	}
	// An unbounded chain with no budget comes first: high, and the
	// largest worst case.
	if first := inv.Sites[0]; !first.WorstCase.Unbounded || first.Budget {
		t.Errorf("first row %s is not unbounded and unbudgeted: %+v", first.Pos, first.WorstCase)
	}
}

// TestOrder: ranks are 1..n, no site twice (the files are in p and in
// p's test variant); each level is what docs/inventory.md says of the
// row's findings; and the rows come by level, then by the level before
// raising, then by attempts per call, each largest first.
func TestOrder(t *testing.T) {
	inv := layers(t)
	seen := map[string]bool{}
	levels := map[string]int{"low": 0, "medium": 1, "high": 2}
	type key struct{ level, base, amp int }
	var last *key
	for i, r := range inv.Sites {
		if r.Rank != i+1 {
			t.Errorf("row %d has rank %d", i, r.Rank)
		}
		if seen[r.Pos] {
			t.Errorf("%s listed twice", r.Pos)
		}
		seen[r.Pos] = true
		base, raisers := docLevel(r)
		if want := min(2, base+raisers); levels[r.Risk.Level] != want {
			t.Errorf("%s: level %s, want %d from findings %+v", r.Pos, r.Risk.Level, want, r.Findings)
		}
		k := key{levels[r.Risk.Level], base, r.WorstCase.Attempts}
		if r.WorstCase.Unbounded {
			k.amp = int(^uint(0) >> 1)
		}
		if last != nil && (k.level > last.level || k.level == last.level && (k.base > last.base || k.base == last.base && k.amp > last.amp)) {
			t.Errorf("%s %+v ranked after %+v", r.Pos, k, *last)
		}
		last = &k
	}
	if len(inv.Sites) < 10 {
		t.Errorf("only %d rows: %v", len(inv.Sites), positions(inv))
	}
	if inv.Sites[0].Risk.Level != "high" {
		t.Errorf("first row %s is %s", inv.Sites[0].Pos, inv.Sites[0].Risk)
	}
}

// docLevel grades a row's findings as docs/inventory.md tells a reader
// to: the level its findings set (0 low, 1 medium, 2 high) and the number
// of checks that raise it.
func docLevel(r *inventory.Row) (base, raisers int) {
	raising := map[string]bool{}
	for _, f := range r.Findings {
		switch f.Analyzer + " " + f.Category {
		case "retryidempotency no-key", "retryidempotency key-per-attempt", "retrynested nested-retry", "retrynested nested-client":
			base = 2
		case "retrybudget unbounded", "retrybudget no-budget":
			if r.WorstCase.Nested {
				base = 2
			} else {
				base = max(base, 1)
			}
		default:
			raising[f.Analyzer] = true
		}
	}
	return base, len(raising)
}

// TestMarkdown: one table row per site, the chain named on the nested
// ones, no cell broken by a pipe.
func TestMarkdown(t *testing.T) {
	inv := layers(t)
	var buf bytes.Buffer
	inv.Markdown(&buf)
	out := buf.String()
	var rows []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| # ") {
			rows = append(rows, line)
		}
	}
	if len(rows) != len(inv.Sites) {
		t.Fatalf("%d table rows for %d sites:\n%s", len(rows), len(inv.Sites), out)
	}
	header := strings.Count(strings.Split(out, "\n")[4], " | ")
	for _, r := range rows {
		if n := strings.Count(strings.ReplaceAll(r, `\|`, ""), " | "); n != header {
			t.Errorf("row has %d cells, header %d: %s", n+1, header+1, r)
		}
	}
	want := "3 × 4 × 3 = up to 36: handler.(*H).Handle ×3 → client.(*Client).Send ×4 → transport.(*T).RoundTrip ×3"
	if !strings.Contains(out, want) {
		t.Errorf("markdown lacks %q:\n%s", want, out)
	}
}

// TestJSONSchema validates the JSON form against docs/inventory.schema.json,
// and the schema against what the renderer writes: a field renamed in one
// and not the other fails (the schema forbids unknown properties).
func TestJSONSchema(t *testing.T) {
	inv := layers(t)
	var buf bytes.Buffer
	if err := inv.JSON(&buf); err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	schema := compileSchema(t)
	if err := schema.Validate(doc); err != nil {
		t.Fatalf("inventory JSON does not match docs/inventory.schema.json: %v", err)
	}

	// The schema is not vacuous: a renamed field and a wrong version fail.
	for _, mutate := range []func(m map[string]any){
		func(m map[string]any) { m["version"] = 2 },
		func(m map[string]any) {
			s := m["sites"].([]any)[0].(map[string]any)
			s["worst"] = s["worstCase"]
			delete(s, "worstCase")
		},
		func(m map[string]any) {
			s := m["sites"].([]any)[0].(map[string]any)
			s["attempts"] = 3
		},
	} {
		var m map[string]any
		if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		mutate(m)
		if err := schema.Validate(m); err == nil {
			t.Errorf("schema accepts a broken document")
		}
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	schema, err := c.Compile(filepath.Join("..", "..", "docs", "inventory.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// TestFormatFlag: a bare -inventory is md; a bad value fails the check.
func TestFormatFlag(t *testing.T) {
	var f inventory.Format
	for in, want := range map[string]inventory.Format{"true": "md", "md": "md", "json": "json", "html": "html", "false": ""} {
		if err := f.Set(in); err != nil || f != want || f.Check() != nil {
			t.Errorf("Set(%q) = %q, %v, check %v; want %q", in, f, err, f.Check(), want)
		}
	}
	if err := f.Set("pdf"); err != nil || f.Check() == nil || !strings.Contains(f.Check().Error(), "md, json or html") {
		t.Errorf("Set(pdf): %v, check %v; want a check error naming md, json or html", err, f.Check())
	}
}

// TestRemotes: what each retried operation reaches, the delay's base and
// cap, and the idempotency key, from internal/inventory/testdata.
func TestRemotes(t *testing.T) {
	dir, _ := filepath.Abs("testdata")
	inv := load(t, dir, "remotes/...")
	post := rowAt(t, inv, "remotes/remotes.go:19")
	want := inventory.Remote{Kind: "http", Call: "hc.Do(req)", Method: "POST", Host: "ledger.example.com"}
	if post.Remote == nil || *post.Remote != want {
		t.Errorf("post remote = %+v, want %+v", post.Remote, want)
	}
	if d := post.Delay; d.Kind != "select" || d.Growth != "growing" || d.Base != "100ms" || d.Cap != "2s" || !d.Cancellable {
		t.Errorf("post delay = %+v, want select growing from 100ms, cap 2s, cancellable", d)
	}
	if post.IdempotencyKey != "present" || post.Attempts.N != 5 || post.Deadline.Kind != "caller" || !post.Deadline.Consulted {
		t.Errorf("post: key %q, attempts %v, deadline %+v", post.IdempotencyKey, post.Attempts, post.Deadline)
	}
	if r := rowAt(t, inv, "remotes/remotes.go:46").Remote; r == nil || r.Kind != "sql" || r.Query != "UPDATE accounts SET balance = balance - 1" {
		t.Errorf("sql remote = %+v", r)
	}
	if r := rowAt(t, inv, "remotes/remotes.go:58").Remote; r == nil || r.Kind != "grpc" || r.Method != "Ledger/GetBalance" {
		t.Errorf("grpc remote = %+v", r)
	}
}

// TestDelayWords: the delay, attempts and deadline in a reader's words,
// from internal/inventory/testdata/src/remotes.
func TestDelayWords(t *testing.T) {
	dir, _ := filepath.Abs("testdata")
	inv := load(t, dir, "remotes/...")
	for _, c := range []struct{ pos, delay, deadline string }{
		{"remotes/remotes.go:19", "exponential 100 ms → 2 s, no jitter", "the caller's, checked between attempts"},
		{"remotes/remotes.go:46", "fixed 1 s", "the caller's, waits ignore cancellation"},
		{"remotes/delays.go:19", "unknown (set by cfg.RetryDelay)", "unknown"},
		{"remotes/delays.go:32", "server-directed", "unknown, checked between attempts"},
		{"remotes/delays.go:52", "200–400 ms jittered", "unknown, checked between attempts"},
		{"remotes/delays.go:70", "exponential 100 ms → 10 s, full jitter", "unknown, checked between attempts"},
	} {
		r := rowAt(t, inv, c.pos)
		if r.Delay.Text != c.delay || r.Deadline.Text != c.deadline {
			t.Errorf("%s: delay %q, deadline %q; want %q, %q", c.pos, r.Delay.Text, r.Deadline.Text, c.delay, c.deadline)
		}
		if r.AttemptsText != r.Attempts.String() {
			t.Errorf("%s: attempts %q, want %q", c.pos, r.AttemptsText, r.Attempts.String())
		}
	}
}

// TestGroupedFindings: a finding grouped by root cause (the sends of a
// retryablehttp client configured in its constructor, one retrybudget
// finding at the construction) is a finding of each send's row, as the
// findings it replaced were.
func TestGroupedFindings(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "analyzers", "retrybudget", "testdata", "src", "libclients"))
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  dir,
		Env:  append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("packages do not load")
	}
	graph, err := checker.Analyze(inventory.Require(analyzers.All()), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	inv := inventory.Build(graph, func(name string) string {
		r, _ := filepath.Rel(dir, name)
		return filepath.ToSlash(r)
	})
	for _, pos := range []string{"held/held.go:36", "held/held.go:45", "held/held.go:50", "held/held.go:58"} {
		r := rowAt(t, inv, pos)
		if !slices.ContainsFunc(r.Findings, func(f inventory.Finding) bool { return f.Analyzer == "retrybudget" }) {
			t.Errorf("%s: findings %+v, want retrybudget's", r.Pos, r.Findings)
		}
	}
}
