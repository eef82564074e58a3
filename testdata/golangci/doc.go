// Package retryfixture holds retry anti-patterns for the end-to-end tests
// of the retrylint golangci-lint plugin (plugin/e2e_test.go). Each file is
// named for what it shows; every one of the six analyzers must report
// here. The package must build before and after `golangci-lint run --fix`.
package retryfixture
