package inventory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// Format is the value of the driver's -inventory flag: "" (no
// inventory), md, json or html. A bare -inventory means md.
type Format string

// Formats are the accepted values of -inventory.
var Formats = []Format{"md", "json", "html"}

func (f *Format) String() string { return string(*f) }

// IsBoolFlag lets -inventory stand alone, meaning md.
func (f *Format) IsBoolFlag() bool { return true }

// Set records the value; true (a bare -inventory) means md and false
// none. [Format.Check] judges it after parsing: the flag package words
// an error of a boolean flag's Set as a bad boolean.
func (f *Format) Set(s string) error {
	switch s {
	case "true":
		*f = "md"
	case "false":
		*f = ""
	default:
		*f = Format(s)
	}
	return nil
}

// Check reports a format other than md, json or html.
func (f Format) Check() error {
	if f != "" && !slices.Contains(Formats, f) {
		return fmt.Errorf("unknown -inventory %q (want md, json or html)", string(f))
	}
	return nil
}

// Require returns the analyzers with the retryloop analyzer among them:
// the checker keeps the results of the requested analyzers only, and the
// inventory reads retryloop's.
func Require(analyzers []*analysis.Analyzer) []*analysis.Analyzer {
	if slices.Contains(analyzers, retryloop.Analyzer) {
		return analyzers
	}
	return append(slices.Clip(analyzers), retryloop.Analyzer)
}

// Write builds the inventory of graph's root packages and writes it to w
// in format f, all at once.
func Write(w io.Writer, f Format, graph *checker.Graph, rel func(string) string) error {
	inv := Build(graph, rel)
	var buf bytes.Buffer
	switch f {
	case "json":
		if err := inv.JSON(&buf); err != nil {
			return err
		}
	case "html":
		if err := inv.HTML(&buf); err != nil {
			return err
		}
	case "md":
		inv.Markdown(&buf)
	default:
		panic("internal error: inventory format " + strconv.Quote(string(f)))
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// JSON writes the versioned JSON form (docs/inventory.md).
func (inv *Inventory) JSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(inv)
}

// Markdown writes a table that renders in a pull request.
func (inv *Inventory) Markdown(w io.Writer) {
	fmt.Fprintf(w, "## Retry inventory\n\n%s\n\n", inv.summary())
	if len(inv.Sites) == 0 {
		return
	}
	fmt.Fprintln(w, "| # | Risk | Site | Function | Operation | Attempts | Delay | Jitter | Budget | Deadline | Key | Worst case per call |")
	fmt.Fprintln(w, "|--:|------|------|----------|-----------|---------:|-------|--------|--------|----------|-----|---------------------|")
	for _, r := range inv.Sites {
		cells := []string{
			strconv.Itoa(r.Rank),
			r.Risk.String(),
			code(r.Pos),
			code(r.Function),
			code(r.Operation) + remoteText(r.Remote, " → "),
			r.AttemptsText,
			r.Delay.String(),
			yesNo(r.Jitter),
			yesNo(r.Budget),
			r.Deadline.String(),
			dash(r.IdempotencyKey),
			r.WorstCase.Text + layersText(r.Layers),
		}
		for i, c := range cells {
			cells[i] = mdCell(c)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}

// summary counts the sites by risk: "5 retry sites: 2 high, 1 medium, 2 low".
func (inv *Inventory) summary() string {
	if len(inv.Sites) == 0 {
		return "No retry sites."
	}
	n := map[string]int{}
	for _, r := range inv.Sites {
		n[r.Risk.Level]++
	}
	var parts []string
	for _, l := range []string{"high", "medium", "low"} {
		if n[l] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[l], l))
		}
	}
	noun := "retry sites"
	if len(inv.Sites) == 1 {
		noun = "retry site"
	}
	return fmt.Sprintf("%d %s, riskiest first: %s.",
		len(inv.Sites), noun, strings.Join(parts, ", "))
}

func (r Risk) String() string {
	if len(r.Reasons) == 0 {
		return r.Level
	}
	return r.Level + ": " + strings.Join(r.Reasons, ", ")
}

func (d Delay) String() string { return d.Text }

func (c Context) String() string { return c.Text }

// remoteText writes "POST host" / "sql query" / "grpc Svc/Method" after sep.
func remoteText(r *Remote, sep string) string {
	if r == nil {
		return ""
	}
	s := r.Kind
	switch r.Kind {
	case "http":
		s = strings.Join(slices.DeleteFunc([]string{"HTTP", r.Method, r.Host}, func(p string) bool { return p == "" }), " ")
	case "sql":
		s = "SQL " + r.Query
	case "grpc":
		s = "gRPC " + r.Method
	}
	// A network call's via is the operation's own callee: the operation
	// column already names it.
	if r.Via != "" && r.Kind != "network" {
		s += " via " + r.Via
	}
	return sep + s
}

// layersText writes the chain of a nested site: ": a (3) → b (4)".
func layersText(ls []*Layer) string {
	if len(ls) < 2 {
		return ""
	}
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.Function + " ×" + l.Attempts.String()
	}
	return ": " + strings.Join(parts, " → ")
}

func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

// mdCell escapes what would end a table cell or row.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", "").Replace(s)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
