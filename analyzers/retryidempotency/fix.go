package retryidempotency

import (
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// keyFix mints a key once before the loop and sets it on each attempt.
func keyFix(pass *analysis.Pass, s *retryloop.Site, req *retryloop.Request) []analysis.SuggestedFix {
	return nil
}
