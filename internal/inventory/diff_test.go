package inventory

import (
	"bytes"
	"strings"
	"testing"
)

func row(file string, line int, fn, op string, layers ...*Layer) *Row {
	r := &Row{Pos: file + ":" + itoa(line) + ":2", File: file, Line: line, Col: 2, Package: "example.com/m/p", Function: fn,
		Shape: "counted", Operation: op, Layers: layers, Risk: Risk{Level: "low", Reasons: []string{}}}
	r.Attempts = layers[0].Attempts
	r.WorstCase = worstOf(layers)
	return r
}

func layer(fn string, n int) *Layer { return &Layer{Function: fn, Attempts: Count{N: n}} }

// TestDiff: sites are matched by package, function, shape and operation,
// in file order among equals, whatever their lines; a layer added below
// a site is its change of the worst case, with the layer named.
func TestDiff(t *testing.T) {
	base := &Inventory{Version: Version, Sites: []*Row{
		row("h.go", 10, "p.Handle", "c.Send(ctx)", layer("p.Handle", 3)),
		row("h.go", 30, "p.Twice", "f()", layer("p.Twice", 2)),
		row("h.go", 40, "p.Twice", "f()", layer("p.Twice", 5)),
		row("old.go", 5, "p.Gone", "g()", layer("p.Gone", 3)),
	}}
	head := &Inventory{Version: Version, Sites: []*Row{
		row("h.go", 14, "p.Handle", "c.Send(ctx)", layer("p.Handle", 3), layer("client.(*Client).Send", 4), layer("the retryablehttp client", 3)),
		row("h.go", 34, "p.Twice", "f()", layer("p.Twice", 2)),
		row("h.go", 44, "p.Twice", "f()", layer("p.Twice", 5)),
		row("c.go", 8, "client.(*Client).Send", "hc.Do(req)", layer("client.(*Client).Send", 4), layer("the retryablehttp client", 3)),
	}}
	var got []string
	for _, c := range Diff(base, head) {
		pos := ""
		if c.Head != nil {
			pos = c.Head.Pos
		} else {
			pos = "was " + c.Base.Pos
		}
		got = append(got, c.Kind+" "+pos+": "+strings.Join(c.Notes, "; "))
	}
	want := []string{
		"changed h.go:14:2: up to 3 → up to 36 attempts per call (3 × 4 × 3): new retry layer in client.(*Client).Send (×4); new retry layer in the retryablehttp client (×3)",
		"added c.go:8:2: new retry site",
		"removed was old.go:5:2: retry site removed",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Diff:\n got %q\nwant %q", got, want)
	}

	var buf bytes.Buffer
	if err := WriteReview(&buf, base, head); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, s := range []string{
		"This change adds 1 retry site, removes 1 and changes 1 (4 in the base, 4 now).",
		"- `p.Handle`: up to 3 → up to 36 attempts per call (3 × 4 × 3): new retry layer in client.(*Client).Send (×4)",
		"| removed | low | was `old.go:5:2` | `p.Gone` | `g()` | up to 3 | retry site removed |",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("review lacks %q:\n%s", s, md)
		}
	}

	buf.Reset()
	if err := WriteReview(&buf, base, base); err != nil || !strings.Contains(buf.String(), "No retry site added, removed or changed (4 in the base, 4 now).") {
		t.Errorf("no change: %v\n%s", err, buf.String())
	}
}
