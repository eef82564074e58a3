package inventory

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// ReadBase reads an inventory that retrylint -inventory=json wrote (of a
// pull request's base, say). Its errors are one line each, naming file.
func ReadBase(file string) (*Inventory, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("-inventory.base: %v", err)
	}
	inv, err := parseBase(data)
	if err != nil {
		return nil, fmt.Errorf("-inventory.base %s: %v", file, err)
	}
	return inv, nil
}

func parseBase(data []byte) (*Inventory, error) {
	var doc struct {
		Version *int             `json:"version"`
		Sites   *json.RawMessage `json:"sites"`
	}
	const want = "not an inventory of retrylint -inventory=json"
	var raw json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty: want the output of retrylint -inventory=json")
		}
		return nil, fmt.Errorf("%s: %v", want, oneLine(err))
	}
	if dec.More() {
		return nil, errors.New(want + ": more than one JSON value")
	}
	if raw[0] != '{' {
		return nil, errors.New(want + ": not a JSON object")
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", want, oneLine(err))
	}
	switch {
	case doc.Version == nil || doc.Sites == nil:
		return nil, errors.New(want + `: no "version" and "sites"`)
	case *doc.Version != Version:
		return nil, fmt.Errorf("inventory version %d, this retrylint reads version %d: write the base with the same retrylint", *doc.Version, Version)
	}
	inv := &Inventory{Version: Version}
	if err := json.Unmarshal(*doc.Sites, &inv.Sites); err != nil {
		return nil, fmt.Errorf("bad sites: %v", oneLine(err))
	}
	for i, r := range inv.Sites {
		if r == nil || r.Package == "" || r.Function == "" || r.Shape == "" || r.File == "" {
			return nil, fmt.Errorf("site %d lacks its package, function, shape or file", i+1)
		}
	}
	return inv, nil
}

func oneLine(err error) string { return firstLine(err.Error()) }

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// Change is one retry site a change adds, removes or changes.
type Change struct {
	Kind string // added, removed or changed
	Base *Row   // nil when added
	Head *Row   // nil when removed
	// Notes say what changed, in words: the worst case per call and why,
	// the risk, the delay, the attempts, the deadline, the budget, the key.
	Notes []string
}

// siteKey identifies a site across commits by what a change leaves alone
// when it only moves code: its package, function, shape and operation,
// never its line.
func siteKey(r *Row) string {
	return strings.Join([]string{r.Package, r.Function, r.Shape, r.Operation}, "\x00")
}

// Diff returns the sites head adds to base, removes from it, or changes,
// matching sites by [siteKey] (the n-th of a key in base with the n-th in
// head, in file order). Added and changed sites come in head's order,
// riskiest first, then the removed in base's.
func Diff(base, head *Inventory) []Change {
	byKey := func(inv *Inventory) map[string][]*Row {
		m := map[string][]*Row{}
		rows := slices.Clone(inv.Sites)
		slices.SortStableFunc(rows, func(a, b *Row) int {
			return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
		})
		for _, r := range rows {
			m[siteKey(r)] = append(m[siteKey(r)], r)
		}
		return m
	}
	was, now := byKey(base), byKey(head)
	match := map[*Row]*Row{} // head row → base row
	matched := map[*Row]bool{}
	for k, rows := range now {
		for i, r := range rows {
			if i < len(was[k]) {
				match[r], matched[was[k][i]] = was[k][i], true
			}
		}
	}
	var out []Change
	for _, r := range head.Sites {
		b, ok := match[r]
		if !ok {
			out = append(out, Change{Kind: "added", Head: r, Notes: []string{"new retry site"}})
			continue
		}
		if notes := changes(b, r); len(notes) > 0 {
			out = append(out, Change{Kind: "changed", Base: b, Head: r, Notes: notes})
		}
	}
	for _, r := range base.Sites {
		if !matched[r] {
			out = append(out, Change{Kind: "removed", Base: r, Notes: []string{"retry site removed"}})
		}
	}
	return out
}

// changes words what differs between a site's base and head rows; none
// when only its position moved.
func changes(b, h *Row) []string {
	var notes []string
	if b.WorstCase.Text != h.WorstCase.Text {
		notes = append(notes, productChange(b, h))
	}
	if b.Risk.Level != h.Risk.Level {
		notes = append(notes, "risk "+b.Risk.Level+" → "+h.Risk.String())
	}
	for _, f := range []struct{ name, was, now string }{
		{"attempts", b.AttemptsText, h.AttemptsText},
		{"delay", b.Delay.Text, h.Delay.Text},
		{"deadline", b.Deadline.Text, h.Deadline.Text},
		{"budget", yesNo(b.Budget), yesNo(h.Budget)},
		{"idempotency key", dash(b.IdempotencyKey), dash(h.IdempotencyKey)},
	} {
		if f.was != f.now {
			notes = append(notes, f.name+" "+f.was+" → "+f.now)
		}
	}
	return notes
}

// productChange words how the worst case per call changed, and why:
// "up to 3 → up to 36 attempts per call: new retry layer in
// client.(*Client).Send".
func productChange(b, h *Row) string {
	s := worstWords(b.WorstCase) + " → " + worstWords(h.WorstCase) + " attempts per call"
	if h.WorstCase.Nested {
		s += " (" + h.WorstCase.Chain + ")"
	}
	if why := layerChanges(b.Layers, h.Layers); len(why) > 0 {
		s += ": " + strings.Join(why, "; ")
	}
	return s
}

// worstWords writes a worst case as a count a reader compares: "up to
// 36", "at least 12", "unbounded", "unknown".
func worstWords(w Worst) string {
	switch {
	case w.Unbounded:
		return "unbounded"
	case w.Known:
		return "up to " + itoa(w.Attempts)
	case w.Nested:
		return "at least " + itoa(w.Attempts)
	}
	return "unknown"
}

// layerChanges compares the chains of one site, its own layer aside: the
// layers head adds, those it drops, and those whose attempts changed.
func layerChanges(b, h []*Layer) []string {
	inner := func(ls []*Layer) []*Layer {
		if len(ls) == 0 {
			return nil
		}
		return ls[1:]
	}
	was, now := inner(b), inner(h)
	find := func(ls []*Layer, l *Layer) *Layer {
		if l.Function == "?" {
			return nil // a layer out of view has no name to match by
		}
		if i := slices.IndexFunc(ls, func(x *Layer) bool { return x.Function == l.Function }); i >= 0 {
			return ls[i]
		}
		return nil
	}
	var out []string
	for _, l := range now {
		switch old := find(was, l); {
		case old == nil:
			out = append(out, "new retry layer in "+l.Function+" (×"+l.Attempts.String()+")")
		case old.Attempts != l.Attempts:
			out = append(out, l.Function+" ×"+old.Attempts.String()+" → ×"+l.Attempts.String())
		}
	}
	for _, l := range was {
		if find(now, l) == nil {
			out = append(out, "retry layer in "+l.Function+" gone")
		}
	}
	if len(out) == 0 && b[0].Attempts != h[0].Attempts {
		out = append(out, "its own attempts ×"+b[0].Attempts.String()+" → ×"+h[0].Attempts.String())
	}
	return out
}

// WriteReview writes the changes in Markdown, for a pull request comment
// or a job summary: a line counting them, the changes of the worst case
// per call, then a table of every change.
func WriteReview(w io.Writer, base, head *Inventory) error {
	var buf bytes.Buffer
	cs := Diff(base, head)
	buf.WriteString("## Retry review\n\n")
	count := map[string]int{}
	for _, c := range cs {
		count[c.Kind]++
	}
	if len(cs) == 0 {
		fmt.Fprintf(&buf, "No retry site added, removed or changed (%d in the base, %d now).\n", len(base.Sites), len(head.Sites))
		_, err := w.Write(buf.Bytes())
		return err
	}
	fmt.Fprintf(&buf, "This change adds %s, removes %d and changes %d (%d in the base, %d now).\n\n",
		plural(count["added"], "retry site"), count["removed"], count["changed"], len(base.Sites), len(head.Sites))
	var products []string
	for _, c := range cs {
		if c.Kind == "changed" && c.Base.WorstCase.Text != c.Head.WorstCase.Text {
			products = append(products, "- "+code(c.Head.Function)+": "+c.Notes[0])
		}
	}
	if len(products) > 0 {
		buf.WriteString("Worst case per call:\n\n" + strings.Join(products, "\n") + "\n\n")
	}
	buf.WriteString("| Change | Risk | Site | Function | Operation | Worst case per call | What changed |\n")
	buf.WriteString("|--------|------|------|----------|-----------|---------------------|--------------|\n")
	for _, c := range cs {
		r, site := c.Head, ""
		if r == nil {
			r, site = c.Base, "was "+code(c.Base.Pos)
		} else {
			site = code(r.Pos)
		}
		cells := []string{c.Kind, r.Risk.String(), site, code(r.Function), code(r.Operation) + remoteText(r.Remote, " → "),
			r.WorstCase.Text, strings.Join(c.Notes, "; ")}
		for i, cell := range cells {
			cells[i] = mdCell(cell)
		}
		fmt.Fprintf(&buf, "| %s |\n", strings.Join(cells, " | "))
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return itoa(n) + " " + noun + "s"
}
