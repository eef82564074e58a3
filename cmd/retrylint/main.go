// Command retrylint runs the retrylint analyzers.
package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/retrylint/retrylint/analyzers"
)

func main() { multichecker.Main(analyzers.All()...) }
