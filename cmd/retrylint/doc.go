/*
Retrylint reports retry loops that turn a blip into an outage: retries
without a budget, backoff without jitter, fixed sleeps, re-sent
non-idempotent writes and retries without a deadline.

Usage:

	retrylint [flags] packages
	retrylint help [analyzer]
	go vet -vettool=$(command -v retrylint) [-fix [-diff]] packages
	go fix -fixtool=$(command -v retrylint) [-diff] packages

Run standalone, retrylint loads the packages (and their tests, when an
analyzer's -NAME.tests flag asks for _test.go files) from source, runs the analyzers and prints the findings to
standard output, one per line, sorted by position:

	path/file.go:12:3: message (analyzer)
		path/file.go:8:2: related position

Paths are relative to the current directory when inside it. Errors and
notes go to standard error, each line prefixed "retrylint: ".

When the go command runs it as a vet or fix tool (the arguments are
-V=full, -flags, or end with a *.cfg file), retrylint behaves exactly as
go vet expects, including -json, -c, -fix and -diff. Give go vet an
absolute path: it does not search PATH.

# Flags

	-format text|json|sarif
	      output format (default text)
	-json
	      same as -format json; the JSON has the shape of go vet -json:
	      {"pkg": {"analyzer": [{"posn", "end", "message", "category",
	      "related", "suggested_fixes", "sites"}]}}; "sites", an
	      extension, lists every site of a finding grouped by root
	      cause (its "related" lists at most ten)
	-c N
	      with text output, show each finding's lines with N lines of
	      context
	-fix
	      apply the first suggested fix of each finding (the safest) in
	      place, then report what is left. Identical edits from several
	      findings are applied once; a fix that conflicts with one already
	      taken is skipped and said on standard error; fixed files are
	      gofmt'ed; generated files ("// Code generated ... DO NOT EDIT.")
	      and cgo files (those that import "C") are never edited, and one
	      line on standard error names the files whose findings were left
	      without fixes for that reason. If a fixed file now imports
	      github.com/retrylint/retrylint/budget and its module does not
	      require it, retrylint prints the go get command to run.
	-diff
	      with -fix, print the changes as a unified diff on standard
	      output instead of writing them (findings without a fix then go
	      to standard error)
	-baseline FILE
	      report (and fail on) only findings that are not recorded in FILE
	-baseline-write
	      with -baseline FILE, record the current findings in FILE and
	      exit 0
	-test
	      also load test packages when an analyzer analyzes test files
	      (its -NAME.tests flag; default true)
	-tags list
	      comma-separated build tags
	-inventory, -inventory=md|json|html
	      print every retry site of the packages, one row each, riskiest
	      first, instead of the findings, and exit 0 (not with -fix or
	      -baseline-write); see docs/inventory.md
	-inventory.base FILE
	      print, in Markdown, the retry sites added, removed or changed
	      since FILE, an -inventory=json of before (a pull request's
	      base), with how each changes the worst case per call; exits 0,
	      or 1 when FILE is not such an inventory
	-V, -version
	      print the version
	-NAME
	      run only the named analyzers (-retrybudget -retryjitter ...);
	      -NAME=false runs all but NAME
	-NAME.OPTION=value
	      set an analyzer option, for example
	      -retrybudget.budget-funcs=example.com/lim.Allow or
	      -retryidempotency.headers=PayPal-Request-Id; run
	      retrylint -h to list them

# Baselines

To adopt retrylint on an existing code base, record today's findings
and fail only on new ones:

	retrylint -baseline-write -baseline retrylint-baseline.json ./...
	retrylint -baseline retrylint-baseline.json ./...

A finding is recognized by its analyzer, its file (relative to the
module root), its enclosing function ("(*T).Method", "Func", "func
literal in Func" or "package-level"), the whitespace-collapsed code of
the reported line(s) and, for identical findings, an occurrence index;
not by its line number, so edits elsewhere in the file do not make it
new. Fix or rewrite the code and the finding counts as new. With -fix,
only findings not in the baseline are fixed. The same fingerprint is
the SARIF partialFingerprints value "retrylint/v1".

A finding grouped by root cause (a retrying client that re-sends the
writes of many request sites, reported once at its construction) is
recognized by the root cause, so sites added, removed or moved do not
make it new; where the root cause is out of view and the finding stands
at its first site, by the package's directory and the root cause's
name. A baseline recorded before the sites were grouped holds the group
while it holds every one of its sites.

# SARIF

-format sarif writes a SARIF 2.1.0 log for GitHub code scanning: one
rule per analyzer, one result per finding (level warning) with its
location relative to the repository root (%SRCROOT%, the nearest
directory above the current one holding .git), related locations, the
category as a property, the fingerprint, and the suggested fixes.

# Exit status

The standalone exit status is the same in every mode (text, json,
sarif, baseline and fix):

	0  no findings
	3  findings: after -baseline, only new ones count; after -fix,
	   only those left unfixed; with -fix -diff, also pending changes
	1  error: a bad flag; packages that do not load (syntax or type
	   errors, an import that is not found, a pattern that matches no
	   packages); an unreadable or malformed baseline; a failing
	   analyzer; an internal error. One line per problem on standard
	   error says why.

Under go vet and go fix the go command's conventions apply instead
(for example go vet exits 1 on findings, and 0 with -json).
*/
package main
