package main

import "testing"

func TestRepoOf(t *testing.T) {
	for path, want := range map[string]string{
		"github.com/cenkalti/backoff/v4":         "github.com/cenkalti/backoff",
		"k8s.io/apimachinery/pkg/util/wait":      "k8s.io/apimachinery",
		"go.opentelemetry.io/otel/sdk/trace":     "go.opentelemetry.io/otel",
		"gitlab.com/a/b":                         "gitlab.com/a/b",
		"github.com/x":                           "github.com/x",
		"cloud.google.com/go/storage/internal/x": "cloud.google.com/go",
	} {
		if got := repoOf(path); got != want {
			t.Errorf("repoOf(%q) = %q, want %q", path, got, want)
		}
	}
}
