package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// describer is the analyzer name under which the shadow/describe command
// reports what each model found of every site ("v2 shape=counted
// bound=counter ...", "v3 retry status=false bound=none ...", "v3 helper
// deadline=caller"), and the calls into other modules that could hold a
// retry ("lib repo=github.com/cenkalti/backoff
// fnarg=github.com/cenkalti/backoff/v4.Retry": the library, never the
// calling code).
const describer = "describe"

// failmodes counts, per analyzer, what the models found in the spans of
// its false negatives and false positives: each property of each site
// description in the span once per row ("v2:delay=unknown"), and
// "v2:no-site" / "v3:no-site" for a row where a model found no site. It
// names no site, path or line: the frozen test split is read in
// aggregate only.
func failmodes(labels []*label, descs []*finding) string {
	type key struct{ analyzer, outcome string }
	counts := map[key]map[string]int{}
	for _, l := range labels {
		var outcome string
		switch {
		case !slices.Contains(analyzers, l.analyzer):
			continue
		case l.label == "flag" && len(l.hits) == 0:
			outcome = "FN"
		case l.label == "noflag" && len(l.hits) > 0:
			outcome = "FP"
		default:
			continue
		}
		props := map[string]bool{}
		models := map[string]bool{}
		for _, d := range descs {
			if d.module != l.module || d.path != l.path || max(d.line, d.endLine) < l.line || d.line > l.end {
				continue // a description joins every span its range overlaps
			}
			words := strings.Fields(d.message)
			if len(words) == 0 {
				continue
			}
			model := strings.TrimSuffix(words[0], "quiet") // v2quiet: a site no check reports at
			models[model] = true
			if words[0] != model {
				props[model+":"+words[0]] = true // v2quiet
			}
			if d.line < l.line {
				props[model+":encloses"] = true // begins before the span: the span is inside it
			}
			for _, w := range words[1:] {
				if k, _, _ := strings.Cut(w, "="); k == "op" {
					continue // the operation's name and line name the site
				}
				props[model+":"+w] = true
			}
		}
		for _, m := range []string{"v2", "v3", "ast"} {
			if !models[m] {
				props[m+":no-site"] = true
			}
		}
		keys := []key{{l.analyzer, outcome}}
		if !models["v2"] && !models["v3"] {
			// what the code of the span is made of where neither model
			// found a site
			keys = append(keys, key{l.analyzer, outcome + " (no site)"})
		}
		for _, k := range keys {
			if counts[k] == nil {
				counts[k] = map[string]int{}
			}
			for p := range props {
				counts[k][p]++
			}
		}
	}
	var b strings.Builder
	b.WriteString("\n## What the models found where the checks miss (counts of rows)\n\n")
	for _, a := range analyzers {
		for _, o := range []string{"FN", "FN (no site)", "FP", "FP (no site)"} {
			c := counts[key{a, o}]
			if len(c) == 0 {
				continue
			}
			var parts []string
			for _, p := range slices.Sorted(maps.Keys(c)) {
				parts = append(parts, fmt.Sprintf("%s %d", p, c[p]))
			}
			fmt.Fprintf(&b, "- %s %s: %s\n", a, o, strings.Join(parts, ", "))
		}
	}
	return b.String()
}
