package analyzers_test

import (
	"slices"
	"testing"

	"github.com/retrylint/retrylint/analyzers"
	"github.com/retrylint/retrylint/analyzers/internal/diag"
)

// TestDirectiveNames checks that //retrylint:ignore knows every analyzer
// of the suite by name, and no other.
func TestDirectiveNames(t *testing.T) {
	var names []string
	for _, a := range analyzers.All() {
		names = append(names, a.Name)
	}
	if !slices.Equal(diag.Names, names) {
		t.Errorf("diag.Names = %v, want the analyzers' names %v", diag.Names, names)
	}
}
