package retryjitter

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// jitterFix wraps the delay in budget.Jitter.
func jitterFix(pass *analysis.Pass, s *retryloop.Site, w *retryloop.Wait) []analysis.SuggestedFix {
	return nil
}
