package inventory_test

import (
	"bytes"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// chromium returns Debian's headless Chromium. Without one the browser
// test skips, except in CI (CI=true), where .ci/run installs it and its
// absence is a failure.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium-headless-shell", "chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const how = "no chromium-headless-shell or chromium on PATH; run .ci/chromium.sh test (it installs the Debian package)"
	if os.Getenv("CI") == "true" {
		t.Fatal(how)
	}
	t.Skip("skipping the HTML test in a real browser: " + how)
	return ""
}

// browse loads url in headless Chromium and returns the DOM after the
// page's script ran, and the console messages Chromium logged.
func browse(t *testing.T, exe, url string, extra ...string) (dom string, console []string) {
	t.Helper()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}, extra...)
	if len(extra) == 0 {
		args = append(args, "--dump-dom")
	}
	cmd := exec.Command(exe, append(args, url)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", exe, err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, ":CONSOLE") {
			console = append(console, line)
		}
	}
	return stdout.String(), console
}

var (
	rowRE    = regexp.MustCompile(`<tr class="[a-z]+" id="row-([0-9]+)" data-function="([^"]*)"`)
	errorsRE = regexp.MustCompile(`(?s)<pre id="errors"[^>]*>(.*?)</pre>`)
)

// rows returns the ranks and functions of the table rows in DOM order.
func rows(t *testing.T, dom string) (ranks []int, funcs []string) {
	t.Helper()
	for _, m := range rowRE.FindAllStringSubmatch(dom, -1) {
		n, _ := strconv.Atoi(m[1])
		ranks = append(ranks, n)
		funcs = append(funcs, html.UnescapeString(m[2]))
	}
	if len(ranks) == 0 {
		t.Fatalf("no table rows in the DOM:\n%s", dom)
	}
	return ranks, funcs
}

// TestHTMLInBrowser loads the page of the three-layer testdata in
// headless Chromium: no console error, the table in rank order, the
// handler's chain drawn as three nested boxes, and a click on a header
// (made by the page's own #sort= hook) sorts the rows.
func TestHTMLInBrowser(t *testing.T) {
	exe := chromium(t)
	inv := layers(t)
	var buf bytes.Buffer
	if err := inv.HTML(&buf); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte("http://")) || bytes.Contains(buf.Bytes(), []byte("https://")) || bytes.Contains(buf.Bytes(), []byte(" src=")) {
		t.Error("the page refers to something outside itself")
	}
	file := filepath.Join(t.TempDir(), "inventory.html")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + filepath.ToSlash(file)

	dom, console := browse(t, exe, url)
	noErrors(t, dom, console)
	ranks, funcs := rows(t, dom)
	if len(ranks) != len(inv.Sites) || !slices.IsSorted(ranks) {
		t.Errorf("table rows %v, want ranks 1..%d in order", ranks, len(inv.Sites))
	}
	// The handler's card: its chain drawn as three nested layers.
	card := dom[strings.Index(dom, `<section class="card" id="site-`+strconv.Itoa(rowAt(t, inv, "layers/handler/handler.go:22").Rank)+`"`):]
	card = card[:strings.Index(card, "</section>")]
	for _, fn := range []string{"handler.(*H).Handle", "client.(*Client).Send", "transport.(*T).RoundTrip"} {
		if !strings.Contains(html.UnescapeString(card), fn) {
			t.Errorf("the handler's card does not draw %s", fn)
		}
	}
	if n := strings.Count(card, `<div class="layer`); n != 3 {
		t.Errorf("the handler's card draws %d layers, want 3", n)
	}

	// Sorted by function: the page marks the sort, the rows follow it,
	// and the order differs from the default one (so the test can fail).
	dom, console = browse(t, exe, url+"#sort=function")
	noErrors(t, dom, console)
	if !strings.Contains(dom, `data-sorted="function:ascending"`) {
		t.Error("the page did not sort by function")
	}
	_, sorted := rows(t, dom)
	if !slices.IsSorted(lower(sorted)) || slices.Equal(sorted, funcs) {
		t.Errorf("rows after sorting by function: %q (before: %q)", sorted, funcs)
	}

	// A second click reverses: by rank, descending.
	dom, console = browse(t, exe, url+"#sort=-rank")
	noErrors(t, dom, console)
	ranks, _ = rows(t, dom)
	if !strings.Contains(dom, `data-sorted="rank:descending"`) || !slices.IsSortedFunc(ranks, func(a, b int) int { return b - a }) {
		t.Errorf("rows after sorting by rank, descending: %v", ranks)
	}

	// A screenshot at a laptop's size, for a reader to look at
	// (INVENTORY_SCREENSHOT=file keeps it).
	shot := os.Getenv("INVENTORY_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "inventory.png")
	}
	if shot, err := filepath.Abs(shot); err == nil {
		_, console = browse(t, exe, url, "--screenshot="+shot, "--window-size=1400,1000")
		noErrors(t, "", console)
		f, err := os.Open(shot)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cfg, err := png.DecodeConfig(f)
		if err != nil || cfg.Width != 1400 || cfg.Height != 1000 {
			t.Errorf("screenshot: %v, %dx%d, want a 1400x1000 PNG", err, cfg.Width, cfg.Height)
		}
	}
}

// noErrors fails on a console message or an error the page's own hook
// recorded.
func noErrors(t *testing.T, dom string, console []string) {
	t.Helper()
	for _, c := range console {
		t.Errorf("console: %s", c)
	}
	if dom == "" {
		return
	}
	m := errorsRE.FindStringSubmatch(dom)
	if m == nil {
		t.Fatal("the page has no #errors element")
	}
	if strings.TrimSpace(m[1]) != "" {
		t.Errorf("the page recorded errors: %s", m[1])
	}
}

func lower(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}
