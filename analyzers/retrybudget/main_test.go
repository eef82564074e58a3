package retrybudget_test

import (
	"path/filepath"
	"testing"

	"github.com/retrylint/retrylint/internal/testmods"
)

// TestMain fetches the retry library testdata/src/libhelpers requires:
// analysistest loads it with GOPROXY=off.
func TestMain(m *testing.M) {
	testmods.Main(m, filepath.Join("testdata", "src", "libhelpers"))
}
