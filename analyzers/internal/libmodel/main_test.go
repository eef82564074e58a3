package libmodel_test

import (
	"path/filepath"
	"testing"

	"github.com/retrylint/retrylint/internal/testmods"
)

// TestMain fetches the real retry libraries the testdata module requires:
// analysistest loads it with GOPROXY=off.
func TestMain(m *testing.M) {
	testmods.Main(m, filepath.Join("testdata", "src", "libs"))
}
