package analyzers_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestExampleInventory runs retrylint -inventory=json over the bundled
// example, as the README shows: exit 0 though the example has findings,
// every retry site once, and each finding inside a listed site.
func TestExampleInventory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	t.Parallel()
	bin := retrylintBinary(t)
	dir := filepath.Join("..", "examples", "ledgerclient")
	cmd := exec.Command(bin, "-inventory=json", "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("retrylint -inventory=json: %v (want exit 0)", err)
	}
	type site struct {
		Pos, File string
		Line      int
	}
	var inv struct {
		Version int
		Sites   []site
	}
	if err := json.Unmarshal(out, &inv); err != nil || inv.Version != 1 {
		t.Fatalf("bad inventory (%v):\n%s", err, out)
	}
	var got []string
	for _, s := range inv.Sites {
		got = append(got, s.Pos)
	}
	sorted := slices.Sorted(slices.Values(got))
	want := []string{
		"cmd/ledgerd/main.go:80:2",         // connect: retry until a ledger answers
		"internal/ledger/balance.go:25:2",  // no budget, fixed sleep
		"internal/ledger/client.go:98:2",   // the careful one
		"internal/ledger/refund.go:40:2",   // key minted per attempt
		"internal/ledger/transfer.go:32:2", // POST without a key
		"internal/queue/consumer.go:54:2",  // consume loop: backoff without jitter
		"internal/queue/worker.go:29:2",    // no deadline
	}
	if !slices.Equal(sorted, want) {
		t.Errorf("inventory sites:\n got %q\nwant %q", sorted, want)
	}

	// Every finding lies in a listed site: its file, at or after the
	// site's line.
	lint := exec.Command(bin, "./...")
	lint.Dir = dir
	text, _ := lint.Output()
	pos := regexp.MustCompile(`(?m)^([^\s:]+\.go):(\d+):\d+: `)
	for _, m := range pos.FindAllStringSubmatch(string(text), -1) {
		line, _ := strconv.Atoi(m[2])
		if !slices.ContainsFunc(inv.Sites, func(s site) bool {
			return filepath.ToSlash(s.File) == filepath.ToSlash(m[1]) && s.Line <= line && line < s.Line+30
		}) {
			t.Errorf("finding at %s:%s is in no listed site", m[1], m[2])
		}
	}
	if !strings.Contains(string(text), "(retry") {
		t.Fatalf("the example has no findings:\n%s", text)
	}
}

// TestReadmeInventory: the README's sample is what the README's
// inventory command prints on the example.
func TestReadmeInventory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	t.Parallel()
	cmd := exec.Command(retrylintBinary(t), "-inventory", "./...")
	cmd.Dir = filepath.Join("..", "examples", "ledgerclient")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("retrylint -inventory: %v", err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The sample leaves out the heading; the rest is verbatim.
	sample := strings.TrimPrefix(string(out), "## Retry inventory\n\n")
	if !strings.Contains(string(readme), sample) {
		t.Errorf("README.md's inventory sample is not the output of its command; update it to:\n%s", sample)
	}
}
