package retrysleep

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// backoffFix replaces a fixed delay with full-jitter exponential backoff.
func backoffFix(pass *analysis.Pass, s *retryloop.Site, w *retryloop.Wait) []analysis.SuggestedFix {
	return nil
}
