package retrydeadline

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// sleepFix makes the wait context-aware.
func sleepFix(pass *analysis.Pass, s *retryloop.Site, w *retryloop.Wait) []analysis.SuggestedFix {
	return nil
}
