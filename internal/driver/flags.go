package driver

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/inventory"
)

// options holds the parsed command line.
type options struct {
	format        string // text, json or sarif
	fix, diff     bool
	context       int // lines of context in text output; <0 for none
	baseline      string
	baselineWrite bool
	tests         bool
	tags          string
	showVersion   bool
	patterns      []string
	analyzers     []*analysis.Analyzer // the selected analyzers
	inventory     inventory.Format     // print the retry inventory instead of findings
	inventoryBase string               // print what changed since this -inventory=json file instead
}

// parseFlags parses args with a fresh FlagSet. Each analyzer's own
// flag.FlagSet is the single source of truth for its options: its
// flags are registered here as -NAME.OPTION, sharing the flag.Value,
// exactly as go vet and multichecker spell them.
func parseFlags(args []string, all []*analysis.Analyzer, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("retrylint", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported once, by Run
	opts := &options{}
	var jsonFlag bool
	fs.StringVar(&opts.format, "format", "text", "output format: text, json or sarif")
	fs.BoolVar(&jsonFlag, "json", false, "emit JSON output (same as -format json)")
	fs.BoolVar(&opts.fix, "fix", false, "apply the first suggested fix of each finding")
	fs.BoolVar(&opts.diff, "diff", false, "with -fix, print a unified diff instead of writing files")
	fs.IntVar(&opts.context, "c", -1, "display offending line with this many lines of context")
	fs.StringVar(&opts.baseline, "baseline", "", "report only findings not recorded in this baseline `file`")
	fs.BoolVar(&opts.baselineWrite, "baseline-write", false, "record the current findings in the -baseline file and exit")
	fs.BoolVar(&opts.tests, "test", true, "also load test packages when an analyzer analyzes _test.go files (its -NAME.tests flag)")
	fs.StringVar(&opts.tags, "tags", "", "comma-separated list of build tags")
	fs.BoolVar(&opts.showVersion, "V", false, "print the version and exit")
	fs.BoolVar(&opts.showVersion, "version", false, "print the version and exit")
	fs.StringVar(&opts.inventoryBase, "inventory.base", "", "print the retry sites added, removed or changed since this `file` of -inventory=json, in Markdown, instead of findings; exits 0")
	fs.Var(&opts.inventory, "inventory", "print every retry site, riskiest first, in `format` md (a bare -inventory), json or html, instead of findings; exits 0")

	// Per-analyzer enable flags are tri-state, as in multichecker:
	// if any is set true only those run; otherwise all run except
	// those set false.
	enabled := make(map[*analysis.Analyzer]*triState)
	for _, a := range all {
		ts := new(triState)
		enabled[a] = ts
		fs.Var(ts, a.Name, "enable the "+a.Name+" analysis")
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	fs.Usage = func() {}

	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stderr, fs)
			return nil, usageError{msg: "help", help: true}
		}
		return nil, usageError{msg: err.Error()}
	}
	if opts.showVersion {
		return opts, nil
	}
	if jsonFlag {
		if opts.format != "text" && opts.format != "json" {
			return nil, usageError{msg: "-json conflicts with -format " + opts.format}
		}
		opts.format = "json"
	}
	switch opts.format {
	case "text", "json", "sarif":
	default:
		return nil, usageError{msg: fmt.Sprintf("unknown -format %q (want text, json or sarif)", opts.format)}
	}
	if opts.diff && !opts.fix {
		return nil, usageError{msg: "-diff requires -fix"}
	}
	if opts.diff && opts.format != "text" {
		// stdout carries the patch; mixing it with JSON would corrupt both.
		return nil, usageError{msg: "-diff cannot be combined with -format " + opts.format}
	}
	if err := opts.inventory.Check(); err != nil {
		return nil, usageError{msg: err.Error()}
	}
	if opts.inventoryBase != "" {
		if opts.inventory != "" && opts.inventory != "md" {
			return nil, usageError{msg: "-inventory.base prints Markdown: not with -inventory=" + string(opts.inventory)}
		}
		opts.inventory = "md"
	}
	if opts.inventory != "" && (opts.fix || opts.baselineWrite) {
		return nil, usageError{msg: "-inventory cannot be combined with -fix or -baseline-write"}
	}
	if opts.baselineWrite && opts.baseline == "" {
		return nil, usageError{msg: "-baseline-write requires -baseline FILE"}
	}
	if opts.baselineWrite && opts.fix {
		return nil, usageError{msg: "-baseline-write cannot be combined with -fix"}
	}
	opts.patterns = fs.Args()
	if len(opts.patterns) > 0 && opts.patterns[0] == "help" {
		if err := help(stderr, fs, all, opts.patterns[1:]); err != nil {
			return nil, err
		}
		return nil, usageError{msg: "help", help: true}
	}
	if len(opts.patterns) == 0 {
		return nil, usageError{msg: "no packages given (usage: retrylint [flags] packages, e.g. retrylint ./...)"}
	}

	var anyTrue bool
	for _, ts := range enabled {
		anyTrue = anyTrue || *ts == setTrue
	}
	for _, a := range all {
		if ts := *enabled[a]; anyTrue && ts == setTrue || !anyTrue && ts != setFalse {
			opts.analyzers = append(opts.analyzers, a)
		}
	}
	if len(opts.analyzers) == 0 {
		return nil, usageError{msg: "all analyzers are disabled"}
	}
	return opts, nil
}

func usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, "usage: retrylint [flags] packages\n\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprint(w, "\nExit status: 0 no findings, 3 findings, 1 error.\n")
}

// help prints the usage, or with names the documentation and options
// of those analyzers.
func help(w io.Writer, fs *flag.FlagSet, all []*analysis.Analyzer, names []string) error {
	if len(names) == 0 {
		usage(w, fs)
		fmt.Fprint(w, "\nAnalyzers (retrylint help NAME for details):\n")
		for _, a := range all {
			fmt.Fprintf(w, "  %-18s %s\n", a.Name, firstLine(a.Doc))
		}
		return nil
	}
	for _, name := range names {
		i := slices.IndexFunc(all, func(a *analysis.Analyzer) bool { return a.Name == name })
		if i < 0 {
			return usageError{msg: fmt.Sprintf("help: no analyzer %q", name)}
		}
		a := all[i]
		fmt.Fprintf(w, "%s: %s\n", a.Name, strings.TrimSpace(a.Doc))
		if a.URL != "" {
			fmt.Fprintf(w, "\nDocumentation: %s\n", a.URL)
		}
		first := true
		a.Flags.VisitAll(func(f *flag.Flag) {
			if first {
				fmt.Fprint(w, "\nOptions:\n")
				first = false
			}
			fmt.Fprintf(w, "  -%s.%s\n    \t%s (default %q)\n", a.Name, f.Name, f.Usage, f.DefValue)
		})
	}
	return nil
}

// releaseVersion is set by a release build that carries no module
// version of its own (a build from a source archive, without VCS data):
//
//	go build -ldflags "-X github.com/retrylint/retrylint/internal/driver.releaseVersion=v0.1.0" ./cmd/retrylint
var releaseVersion string

// version returns the module version of the running binary.
func version() string {
	if releaseVersion != "" {
		return releaseVersion
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return devel
	}
	return moduleVersion(bi)
}

const (
	modulePath = "github.com/retrylint/retrylint"
	devel      = "(devel)"
)

// moduleVersion returns the version of the retrylint module in the
// binary: the main module's when retrylint is built as such (the tag
// of go install …@v1.2.3, or the version go build stamps from the
// checkout's VCS, v1.2.3 or a pseudo-version), the required one when
// another module builds it as a dependency (go tool, a replace keeps
// the required version). Without one, a VCS revision recorded in the
// build makes "(devel) <rev>", else "(devel)".
func moduleVersion(bi *debug.BuildInfo) string {
	m := &bi.Main
	if m.Path != modulePath {
		m = nil
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				m = d
				break
			}
		}
	}
	if m != nil && m.Version != "" && m.Version != devel {
		return m.Version
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if m == &bi.Main && rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if dirty {
			rev += "+dirty"
		}
		return devel + " " + rev
	}
	return devel
}

// triState is a boolean flag that remembers whether it was set.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (ts *triState) IsBoolFlag() bool { return true }

func (ts *triState) Get() any { return *ts == setTrue }

func (ts *triState) String() string {
	switch *ts {
	case setTrue:
		return "true"
	case setFalse:
		return "false"
	}
	return "unset"
}

func (ts *triState) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false, got %q", strings.TrimSpace(s))
	}
	if b {
		*ts = setTrue
	} else {
		*ts = setFalse
	}
	return nil
}
