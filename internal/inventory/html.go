package inventory

import (
	_ "embed"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
)

//go:embed inventory.html
var htmlText string

var page = template.Must(template.New("inventory").Funcs(template.FuncMap{
	"remote": func(r *Remote) string { return remoteText(r, "") },
	"wbr":    wbr,
}).Parse(htmlText))

// HTML writes one self-contained page: the table (server-rendered, so it
// reads without script; a click on a header sorts it) and, for every
// site, its chain of layers drawn as nested boxes. No network access: the
// style and script are inline.
func (inv *Inventory) HTML(w io.Writer) error {
	type row struct {
		*Row
		Box                       *box
		RiskKey, AttKey, WorstKey string
	}
	data := struct {
		Summary string
		Rows    []row
	}{Summary: inv.summary()}
	for _, r := range inv.Sites {
		data.Rows = append(data.Rows, row{Row: r, Box: boxes(r.Layers),
			RiskKey: strconv.Itoa(riskOrder[r.Risk.Level]), AttKey: countKey(r.Attempts), WorstKey: worstKey(r.WorstCase)})
	}
	return page.Execute(w, data)
}

// box is a layer drawn around the layers it calls.
type box struct {
	*Layer
	Depth int
	Inner *box
}

func boxes(ls []*Layer) *box {
	var b *box
	for i := len(ls) - 1; i >= 0; i-- {
		b = &box{Layer: ls[i], Depth: i, Inner: b}
	}
	return b
}

var riskOrder = map[string]int{"high": 3, "medium": 2, "low": 1}

// countKey is the sort key of an attempt count: unknown lowest, unbounded
// highest.
func countKey(c Count) string {
	switch {
	case c.Unbounded:
		return strconv.Itoa(math.MaxInt32)
	case c.N == 0:
		return "-1"
	}
	return strconv.Itoa(c.N)
}

func worstKey(w Worst) string {
	if w.Unbounded {
		return strconv.Itoa(math.MaxInt32)
	}
	return strconv.Itoa(w.Attempts)
}

// wbr escapes code for HTML and lets it wrap after a slash, a dot or an
// open parenthesis: a narrow column breaks a path at its parts, not
// inside a name.
func wbr(s string) template.HTML {
	var b strings.Builder
	for _, r := range s {
		b.WriteString(template.HTMLEscapeString(string(r)))
		if r == '/' || r == '.' || r == '(' {
			b.WriteString("<wbr>")
		}
	}
	return template.HTML(b.String())
}
