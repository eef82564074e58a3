// Package driver is the command-line driver of retrylint.
//
// [Main] is the whole program: it hands over to unitchecker when the
// go command runs it as a vet or fix tool, and otherwise runs [Run],
// the standalone driver built on go/packages and
// golang.org/x/tools/go/analysis/checker.
//
// The standalone driver adds what a team needs to adopt a linter on
// an existing code base: SARIF output for code scanning, a baseline of
// accepted findings, and -fix that applies only the first (safest)
// fix of each finding, never touching generated files.
package driver

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// Exit codes of the standalone driver, the same in every output mode.
const (
	ExitClean    = 0 // no findings
	ExitError    = 1 // bad flags or input, packages that do not load, analyzer failures
	ExitFindings = 3 // findings remain (after baseline filtering and -fix)
)

// Main runs the program with os.Args and exits.
//
// The go command speaks the unitchecker protocol to a vet or fix
// tool: it asks "-V=full" and "-flags", then runs the tool once per
// package with a single *.cfg argument. Those invocations are handed to
// [unitchecker.Main] unchanged, so that go vet -vettool and
// go fix -fixtool get exactly the behaviour they expect.
func Main(analyzers ...*analysis.Analyzer) {
	if IsUnitchecker(os.Args[1:]) {
		args, err := checkUnitFlags(os.Args[1:], analyzers)
		if err != nil {
			// go vet runs the tool once per package, dependencies
			// included (for their facts), and names every package
			// whose run fails. Fail those the user named, in one line
			// each; compute the dependencies' facts without the bad
			// option, as their importers fail anyway.
			if !vetxOnly(os.Args[len(os.Args)-1]) {
				fmt.Fprintf(os.Stderr, "retrylint: %v\n", err)
				os.Exit(ExitError)
			}
			os.Args = append(os.Args[:1], args...)
		}
		// One error line per package for an analyzer that panics, not
		// a goroutine dump (unitchecker does not recover).
		guardPanics(analyzers)
		unitchecker.Main(analyzers...)
		panic("unreachable") // unitchecker.Main exits
	}
	os.Exit(Run(os.Args[1:], analyzers, os.Stdout, os.Stderr))
}

// checkUnitFlags sets the analyzer options (-NAME.OPTION=value) in args,
// the go command's vet tool arguments. It returns the first error, and
// args without the options that failed. unitchecker would report the
// error too, but with the whole usage message after it, once for every
// package of the build.
func checkUnitFlags(args []string, analyzers []*analysis.Analyzer) ([]string, error) {
	var first error
	var kept []string
	for _, arg := range args {
		if err := setUnitFlag(arg, analyzers); err != nil {
			first = cmp.Or(first, err)
			continue
		}
		kept = append(kept, arg)
	}
	return kept, first
}

func setUnitFlag(arg string, analyzers []*analysis.Analyzer) error {
	name, value, ok := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	if !ok || !strings.HasPrefix(arg, "-") {
		return nil
	}
	aname, fname, ok := strings.Cut(name, ".")
	if !ok {
		return nil
	}
	for _, a := range analyzers {
		if f := a.Flags.Lookup(fname); a.Name == aname && f != nil {
			if err := f.Value.Set(value); err != nil {
				return fmt.Errorf("invalid value %q for flag -%s: %v", value, name, err)
			}
		}
	}
	return nil
}

// vetxOnly reports whether the go command's config file asks only for
// facts: the package is a dependency, not one the user named.
func vetxOnly(cfgFile string) bool {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return false
	}
	var cfg struct{ VetxOnly bool }
	return json.Unmarshal(data, &cfg) == nil && cfg.VetxOnly
}

// IsUnitchecker reports whether args are those of the go command's
// vet/fix tool protocol rather than a user's command line.
func IsUnitchecker(args []string) bool {
	for _, arg := range args {
		switch arg {
		case "-V=full", "--V=full", "-flags", "--flags":
			return true
		}
	}
	// "go vet" passes analyzer flags first and the config file last.
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// Run is the standalone driver. It parses args (flags, then package
// patterns), analyzes the packages, prints findings to stdout and
// problems to stderr, and returns the exit code.
//
// Run never panics: a panic anywhere, including inside an analyzer,
// becomes an "internal error" and exit code 1.
func Run(args []string, analyzers []*analysis.Analyzer, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "retrylint: internal error: %s\n", firstLine(fmt.Sprint(r)))
			code = ExitError
		}
	}()
	d := &run{stdout: stdout, stderr: stderr}
	if err := d.main(args, analyzers); err != nil {
		var ue usageError
		if errors.As(err, &ue) && ue.help {
			return ExitClean
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(stderr, "retrylint: %s\n", line)
		}
		return ExitError
	}
	return d.code
}

// usageError is a bad command line; help is set for -h.
type usageError struct {
	msg  string
	help bool
}

func (e usageError) Error() string { return e.msg }

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
