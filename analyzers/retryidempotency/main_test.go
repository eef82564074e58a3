package retryidempotency_test

import (
	"path/filepath"
	"testing"

	"github.com/retrylint/retrylint/internal/testmods"
)

// TestMain fetches the retry libraries testdata/src/libs requires:
// analysistest loads it with GOPROXY=off.
func TestMain(m *testing.M) {
	testmods.Main(m, filepath.Join("testdata", "src", "libs"))
}
