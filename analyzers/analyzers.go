// Package analyzers lists the retrylint suite.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/retrybudget"
	"github.com/retrylint/retrylint/analyzers/retrydeadline"
	"github.com/retrylint/retrylint/analyzers/retryidempotency"
	"github.com/retrylint/retrylint/analyzers/retryjitter"
	"github.com/retrylint/retrylint/analyzers/retrynested"
	"github.com/retrylint/retrylint/analyzers/retrysleep"
)

// All returns the six reporting analyzers in a fixed order.
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
