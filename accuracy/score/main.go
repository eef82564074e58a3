// Command score compares retrylint's findings on the accuracy corpus with
// the blind labels, and prints precision and recall per analyzer and per
// module, with every false positive and false negative.
//
//	go run ./accuracy/score -labels accuracy/labels.tsv -results DIR [-md RESULTS.md]
//
// DIR holds, per module, SLUG.json (retrylint -json output) and SLUG.root
// (the directory the module was analysed in, so that positions become
// module-relative paths). run.sh writes both.
//
// Each label row names a span (path, line..end_line) and an analyzer (or
// "any", meaning no analyzer). A finding belongs to the innermost labeled
// span that holds its line, among the rows for its analyzer and the "any"
// rows; a flag row with a finding is a true positive, without one a false
// negative; a finding on a noflag row is a false positive; "either" rows
// score nothing. Findings outside every labeled span are listed as
// unlabeled: they are not scored (labeling them after seeing the output
// would not be blind).
//
// A grouped finding (one diagnostic for a root cause, such as a retrying
// client re-sending the writes of many request sites: its "sites" list
// every site it stands for) is scored at each of its sites, as the
// findings it replaces were, and not at the root cause where it stands:
// grouping changes how many diagnostics a reader sees, not which sites
// are found.
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

var analyzers = []string{"retrybudget", "retryjitter", "retrysleep", "retryidempotency", "retrydeadline", "retrynested"}

type label struct {
	module, version, path string
	line, end             int
	analyzer, label, note string
	src                   string // file:line of the row
	hits                  []*finding
}

type finding struct {
	module, path string
	line         int
	endLine      int // the last line of the diagnostic's range (describe's loops)
	analyzer     string
	message      string
	row          *label
	// group is the position of the grouped diagnostic the finding is a
	// site of ("" for a diagnostic of its own).
	group string
}

func main() {
	labelsFlag := flag.String("labels", "accuracy/labels.tsv", "label file(s), comma-separated")
	results := flag.String("results", "", "directory with SLUG.json and SLUG.root per module")
	md := flag.String("md", "", "also write the report as Markdown to this file")
	flag.BoolVar(&aggregateOnly, "aggregate", false, "print aggregates only (per analyzer and total, and the count of findings outside labeled spans): the frozen test split is never read site by site")
	scored := flag.String("scored", "", "what was scored (the retrylint build, e.g. its commit), named in the report")
	sampleN := flag.Int("sample", 0, "with -sample-out, write this many findings outside labeled spans, drawn at random, for a judge")
	sampleOut := flag.String("sample-out", "", "file for the -sample findings (never printed: the judge reads it, the scorer's reader does not)")
	seed := flag.Uint64("seed", 1, "seed of the -sample draw")
	failModes := flag.Bool("failmodes", false, "with results of the shadow/describe command: also print, per analyzer, the properties the models found at its false negatives and false positives, counted (aggregate only)")
	flag.Parse()
	if *results == "" {
		fmt.Fprintln(os.Stderr, "score: -results is required")
		os.Exit(2)
	}
	var labels []*label
	for _, f := range strings.Split(*labelsFlag, ",") {
		ls, err := readLabels(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "score:", err)
			os.Exit(1)
		}
		labels = append(labels, ls...)
	}
	mods := map[string]string{} // module -> version
	for _, l := range labels {
		mods[l.module] = l.version
	}
	var findings []*finding
	var missing []string
	for _, m := range slices.Sorted(maps.Keys(mods)) {
		fs, err := readFindings(*results, m, mods[m])
		if err != nil {
			missing = append(missing, fmt.Sprintf("%s@%s: %v", m, mods[m], err))
			continue
		}
		findings = append(findings, fs...)
	}
	// Only the suite's findings are scored; a describe run's descriptions
	// of sites are read for -failmodes.
	var descs []*finding
	findings = slices.DeleteFunc(findings, func(f *finding) bool {
		if f.analyzer == describer {
			descs = append(descs, f)
		}
		return !slices.Contains(analyzers, f.analyzer)
	})
	assign(labels, findings)
	if *sampleOut != "" {
		n, err := writeSample(*sampleOut, findings, *sampleN, *seed)
		if err != nil {
			fmt.Fprintln(os.Stderr, "score:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "score: %d findings outside labeled spans drawn at random (seed %d) into %s\n", n, *seed, *sampleOut)
	}
	rep := report(labels, findings, missing, *scored)
	fmt.Print(rep)
	if *failModes {
		fmt.Print(failmodes(labels, descs))
	}
	if *md != "" {
		if err := os.WriteFile(*md, []byte(rep), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "score:", err)
			os.Exit(1)
		}
	}
}

func readLabels(file string) ([]*label, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*label
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "module\t") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) < 7 {
			return nil, fmt.Errorf("%s:%d: want 8 tab-separated columns, have %d", file, n, len(c))
		}
		start, err1 := strconv.Atoi(strings.TrimSpace(c[3]))
		end, err2 := strconv.Atoi(strings.TrimSpace(c[4]))
		if err1 != nil || err2 != nil || end < start {
			return nil, fmt.Errorf("%s:%d: bad line span %q..%q", file, n, c[3], c[4])
		}
		a, lab := strings.TrimSpace(c[5]), strings.TrimSpace(c[6])
		if a != "any" && !slices.Contains(analyzers, a) {
			return nil, fmt.Errorf("%s:%d: unknown analyzer %q", file, n, a)
		}
		if lab != "flag" && lab != "noflag" && lab != "either" {
			return nil, fmt.Errorf("%s:%d: label %q: want flag, noflag or either", file, n, lab)
		}
		note := ""
		if len(c) > 7 {
			note = strings.Join(c[7:], " ")
		}
		out = append(out, &label{
			module: strings.TrimSpace(c[0]), version: strings.TrimSpace(c[1]),
			path: strings.TrimPrefix(filepath.ToSlash(strings.TrimSpace(c[2])), "./"),
			line: start, end: end, analyzer: a, label: lab, note: note,
			src: fmt.Sprintf("%s:%d", filepath.Base(file), n),
		})
	}
	return out, sc.Err()
}

// Slug is run.sh's file name for a module version.
func Slug(module, version string) string {
	return strings.NewReplacer("/", "_", "@", "_").Replace(module + "@" + version)
}

func readFindings(dir, module, version string) ([]*finding, error) {
	base := filepath.Join(dir, Slug(module, version))
	rootb, err := os.ReadFile(base + ".root")
	if err != nil {
		return nil, fmt.Errorf("not run (%v)", err)
	}
	root := strings.TrimSpace(string(rootb))
	data, err := os.ReadFile(base + ".json")
	if err != nil {
		return nil, err
	}
	// One object, as go vet -json writes it: package -> analyzer -> diagnostics.
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, fmt.Errorf("%s.json: %v", base, err)
	}
	var out []*finding
	seen := map[string]bool{}
	for _, byAnalyzer := range tree {
		for a, raw := range byAnalyzer {
			var diags []struct {
				Posn    string   `json:"posn"`
				End     string   `json:"end"`
				Message string   `json:"message"`
				Sites   []string `json:"sites"`
			}
			if json.Unmarshal(raw, &diags) != nil {
				continue // an analyzer error object
			}
			for _, d := range diags {
				at, group := []string{d.Posn}, ""
				if len(d.Sites) > 0 {
					at, group = d.Sites, d.Posn
				}
				for _, posn := range at {
					file, line, ok := splitPosn(posn)
					if !ok {
						continue
					}
					rel, err := filepath.Rel(root, file)
					if err != nil || strings.HasPrefix(rel, "..") {
						continue
					}
					k := a + " " + posn
					if a == describer {
						k += " " + d.Message // descriptions of several kinds share a position
					}
					if seen[k] { // a package and its test variant
						continue
					}
					seen[k] = true
					end := line
					if _, l, ok := splitPosn(d.End); ok && l > line && group == "" {
						end = l
					}
					out = append(out, &finding{module: module, path: filepath.ToSlash(rel), line: line, endLine: end, analyzer: a, message: d.Message, group: group})
				}
			}
		}
	}
	return out, nil
}

func splitPosn(p string) (string, int, bool) {
	// file:line:col
	i := strings.LastIndex(p, ":")
	if i < 0 {
		return "", 0, false
	}
	j := strings.LastIndex(p[:i], ":")
	if j < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(p[j+1 : i])
	return p[:j], n, err == nil
}

// assign gives each finding to the innermost labeled span holding it.
func assign(labels []*label, findings []*finding) {
	for _, f := range findings {
		var best *label
		for _, l := range labels {
			if l.module != f.module || l.path != f.path || f.line < l.line || f.line > l.end {
				continue
			}
			if l.analyzer != f.analyzer && l.analyzer != "any" {
				continue
			}
			if best == nil || l.end-l.line < best.end-best.line ||
				(l.end-l.line == best.end-best.line && l.analyzer != "any") {
				best = l
			}
		}
		if best != nil {
			f.row = best
			best.hits = append(best.hits, f)
		}
	}
}

// counts are one scope's scores. post are true positives on post-hoc
// rows (findings judged after the output, outside every blind span):
// they count for precision, which must see every finding, and not for
// recall, which only blind rows can measure.
type counts struct{ tp, fp, fn, tn, post int }

func (c counts) precision() string { return ratio(c.tp+c.post, c.tp+c.post+c.fp) }
func (c counts) recall() string    { return ratio(c.tp, c.tp+c.fn) }

// posthoc reports whether a row was labeled after the output was seen.
func (l *label) posthoc() bool { return strings.HasPrefix(l.note, "[post-hoc]") }

func ratio(a, b int) string {
	if b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// aggregateOnly keeps per-module and per-site lines out of the report.
var aggregateOnly bool

func report(labels []*label, findings []*finding, missing []string, scored string) string {
	var b strings.Builder
	byAnalyzer := map[string]*counts{}
	byModule := map[string]*counts{}
	for _, a := range analyzers {
		byAnalyzer[a] = &counts{}
	}
	get := func(m map[string]*counts, k string) *counts {
		if m[k] == nil {
			m[k] = &counts{}
		}
		return m[k]
	}
	var fps, fns []string
	rows := map[string]int{}
	modules := map[string]bool{}
	for _, l := range labels {
		rows[l.label]++
		modules[l.module] = true
		mc := get(byModule, l.module)
		where := fmt.Sprintf("%s %s:%d-%d", l.module, l.path, l.line, l.end)
		switch l.label {
		case "flag":
			switch {
			case len(l.hits) > 0 && l.posthoc():
				byAnalyzer[l.analyzer].post++
				mc.post++
			case len(l.hits) > 0:
				byAnalyzer[l.analyzer].tp++
				mc.tp++
			case l.posthoc():
				fns = append(fns, fmt.Sprintf("- lost (post-hoc, not in recall) %s %s — %s (%s)", l.analyzer, where, l.note, l.src))
			default:
				byAnalyzer[l.analyzer].fn++
				mc.fn++
				fns = append(fns, fmt.Sprintf("- FN %s %s — %s (%s)", l.analyzer, where, l.note, l.src))
			}
		case "noflag":
			reported := map[string]bool{}
			for _, f := range l.hits {
				if reported[f.analyzer] {
					continue
				}
				reported[f.analyzer] = true
				byAnalyzer[f.analyzer].fp++
				mc.fp++
				fps = append(fps, fmt.Sprintf("- FP %s %s:%d (row %s %s, %s) — %s; label: %s", f.analyzer, f.module, f.line, l.analyzer, where, l.src, f.message, l.note))
			}
			if len(reported) == 0 && l.analyzer != "any" {
				byAnalyzer[l.analyzer].tn++
			}
		}
	}
	var unlabeled []string
	for _, f := range findings {
		if f.row == nil {
			unlabeled = append(unlabeled, fmt.Sprintf("- %s %s %s:%d — %s", f.analyzer, f.module, f.path, f.line, f.message))
		}
	}
	total := counts{}
	for _, c := range byAnalyzer {
		total.tp += c.tp
		total.fp += c.fp
		total.fn += c.fn
		total.post += c.post
	}
	fmt.Fprintf(&b, "# Accuracy on the blind-labeled corpus\n\n")
	if scored != "" {
		// A score that did not change still says when it was taken.
		fmt.Fprintf(&b, "Scored: %s.\n\n", scored)
	}
	fmt.Fprintf(&b, "%d modules, %d label rows (%d flag, %d noflag, %d either); %d findings, %d of them outside every labeled span (unscored).\n\n",
		len(modules), len(labels), rows["flag"], rows["noflag"], rows["either"], len(findings), len(unlabeled))
	if n, groups := reported(findings); groups > 0 {
		fmt.Fprintf(&b, "The findings are sites: retrylint reported them as %d diagnostics, %d of them grouped by root cause (a grouped diagnostic is scored at each site it stands for).\n\n", n, groups)
	}
	if total.post > 0 {
		fmt.Fprintf(&b, "TP+ are true positives on post-hoc rows (findings outside every blind span, judged after the output): precision counts them, recall (blind rows only) does not.\n\n")
	}
	fmt.Fprintf(&b, "## Per analyzer\n\n| analyzer | TP | TP+ | FP | FN | precision | recall |\n|---|---|---|---|---|---|---|\n")
	for _, a := range analyzers {
		c := byAnalyzer[a]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s | %s |\n", a, c.tp, c.post, c.fp, c.fn, c.precision(), c.recall())
	}
	fmt.Fprintf(&b, "| **all** | %d | %d | %d | %d | %s | %s |\n\n", total.tp, total.post, total.fp, total.fn, total.precision(), total.recall())
	if aggregateOnly {
		if len(missing) > 0 {
			fmt.Fprintf(&b, "%d modules not run.\n", len(missing))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "## Per module\n\n| module | TP | TP+ | FP | FN | precision | recall |\n|---|---|---|---|---|---|---|\n")
	for _, m := range slices.Sorted(maps.Keys(byModule)) {
		c := byModule[m]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s | %s |\n", m, c.tp, c.post, c.fp, c.fn, c.precision(), c.recall())
	}
	fmt.Fprintf(&b, "\n## Findings per module\n\nWhat a reader sees: the diagnostics retrylint reported, the sites they stand for (a diagnostic grouped by root cause stands for several), and the largest number of sites one diagnostic stands for.\n\n| module | diagnostics | sites | largest |\n|---|--:|--:|---|\n")
	for _, row := range perModule(findings) {
		fmt.Fprintf(&b, "| %s |\n", row)
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, "\n## Not run\n\n")
		for _, m := range missing {
			fmt.Fprintf(&b, "- %s\n", m)
		}
	}
	slices.Sort(fps)
	slices.Sort(fns)
	slices.SortFunc(unlabeled, cmp.Compare)
	fmt.Fprintf(&b, "\n## False positives (%d)\n\n%s\n", len(fps), strings.Join(fps, "\n"))
	fmt.Fprintf(&b, "\n## False negatives (%d)\n\n%s\n", len(fns), strings.Join(fns, "\n"))
	fmt.Fprintf(&b, "\n## Unlabeled findings (%d, not scored)\n\n%s\n", len(unlabeled), strings.Join(unlabeled, "\n"))
	return b.String()
}

// reported returns how many diagnostics the findings came from, and how
// many of those were grouped.
func reported(findings []*finding) (n, groups int) {
	seen := map[string]bool{}
	for _, f := range findings {
		switch {
		case f.group == "":
			n++
		case !seen[f.analyzer+" "+f.group]:
			seen[f.analyzer+" "+f.group] = true
			n++
			groups++
		}
	}
	return n, groups
}

// perModule returns a table row per module with findings: its
// diagnostics, its sites, and the largest group (sites of one diagnostic,
// with the analyzer).
func perModule(findings []*finding) []string {
	byModule := map[string][]*finding{}
	for _, f := range findings {
		byModule[f.module] = append(byModule[f.module], f)
	}
	var rows []string
	for _, m := range slices.Sorted(maps.Keys(byModule)) {
		fs := byModule[m]
		n, _ := reported(fs)
		size := map[string]int{}
		largest, by := 1, ""
		for _, f := range fs {
			if f.group == "" {
				continue
			}
			k := f.analyzer + " " + f.group
			if size[k]++; size[k] > largest {
				largest, by = size[k], f.analyzer
			}
		}
		l := strconv.Itoa(largest)
		if by != "" {
			l += " (" + by + ")"
		}
		rows = append(rows, fmt.Sprintf("%s | %d | %d | %s", m, n, len(fs), l))
	}
	return rows
}

// writeSample writes n findings outside every labeled span, drawn at
// random with seed (all of them when there are fewer), one per line as
// "analyzer module path:line message", in a random order, to file. It
// returns how many it wrote.
func writeSample(file string, findings []*finding, n int, seed uint64) (int, error) {
	var pool []*finding
	for _, f := range findings {
		if f.row == nil {
			pool = append(pool, f)
		}
	}
	// A stable order first, so that one seed draws one sample.
	slices.SortFunc(pool, func(a, b *finding) int {
		return cmp.Or(cmp.Compare(a.module, b.module), cmp.Compare(a.path, b.path),
			cmp.Compare(a.line, b.line), cmp.Compare(a.analyzer, b.analyzer), cmp.Compare(a.message, b.message))
	})
	r := rand.New(rand.NewPCG(seed, 0))
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	pool = pool[:min(n, len(pool))]
	var b strings.Builder
	for _, f := range pool {
		fmt.Fprintf(&b, "%s\t%s\t%s:%d\t%s\n", f.analyzer, f.module, f.path, f.line, f.message)
	}
	return len(pool), os.WriteFile(file, []byte(b.String()), 0o644)
}
