// Package retryloop finds and classifies retry sites.
package retryloop

import (
	"reflect"

	"golang.org/x/tools/go/analysis"
)

// Analyzer finds retry sites; it reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:       "retryloop",
	Doc:        "find and classify retry sites (reports nothing)",
	URL:        "https://github.com/retrylint/retrylint/blob/main/docs/README.md",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
}

// Result lists the retry sites of a package in source order.
type Result struct {
	Sites []*Site
}

// Site is one retry site.
type Site struct{}

func run(pass *analysis.Pass) (any, error) { return &Result{}, nil }
