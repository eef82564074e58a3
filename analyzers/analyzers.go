// Package analyzers lists the retrylint suite.
//
// A suite is the six reporting analyzers over one retryloop model, which
// classifies each package's retry sites once for all of them. The model's
// options are flags of the reporters that own them
// (-retrybudget.budget-funcs, -retrybudget.remote-pkgs,
// -retryidempotency.headers) and steer what every analyzer of the suite
// sees; each reporter's -tests flag is its own.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/retrybudget"
	"github.com/retrylint/retrylint/analyzers/retrydeadline"
	"github.com/retrylint/retrylint/analyzers/retryidempotency"
	"github.com/retrylint/retrylint/analyzers/retryjitter"
	"github.com/retrylint/retrylint/analyzers/retryloop"
	"github.com/retrylint/retrylint/analyzers/retrynested"
	"github.com/retrylint/retrylint/analyzers/retrysleep"
)

// All returns the default suite, the reporters' Analyzer values, in a
// fixed order: the same values on every call, configured by the flags
// of the process (go vet -vettool, the retrylint command).
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		retrybudget.Analyzer,
		retryjitter.Analyzer,
		retrysleep.Analyzer,
		retryidempotency.Analyzer,
		retrydeadline.Analyzer,
		retrynested.Analyzer,
	}
}

// New returns a fresh suite, in the order of All, with a model and flags
// of its own: setting its flags changes nothing for All or any other
// suite, so analyses with different settings can share a process.
//
// Run each suite in an analysis of its own: the models of two suites
// export the same fact types, which one analysis graph cannot hold
// (analysis.Validate rejects it).
func New() []*analysis.Analyzer {
	model := retryloop.New()
	return []*analysis.Analyzer{
		retrybudget.New(model),
		retryjitter.New(model),
		retrysleep.New(model),
		retryidempotency.New(model),
		retrydeadline.New(model),
		retrynested.New(model),
	}
}
