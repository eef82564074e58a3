package registry

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/budget"
)

func TestRegistryKeepsOneBudgetPerName(t *testing.T) {
	var r Registry
	a, b := r.Budget("dep-a"), r.Budget("dep-b")
	if a == b || r.Budget("dep-a") != a {
		t.Fatal("Budget does not keep one budget per name")
	}
	boom := errors.New("boom")
	budget.Do(context.Background(), func(context.Context) error { return boom },
		budget.WithBudget(r.Budget("dep-a")), budget.WithAttempts(1))
	if a.Stats().Requests == 0 || b.Stats().Requests != 0 {
		t.Fatalf("recorded in the wrong budget: a %v, b %v", a.Stats(), b.Stats())
	}
	if got := r.Names(); len(got) != 2 || got[0] != "dep-a" || got[1] != "dep-b" {
		t.Fatalf("Names() = %v", got)
	}
	var m map[string]map[string]float64
	if err := json.Unmarshal([]byte(r.String()), &m); err != nil {
		t.Fatal(err)
	}
	if m["dep-a"]["requests"] != 1 || m["dep-a"]["failures"] != 1 {
		t.Fatalf("String() = %s", r.String())
	}
	if _, ok := m["default"]; ok {
		t.Fatalf("a Registry holds only the budgets asked of it: %s", r.String())
	}
}

func TestVars(t *testing.T) {
	var a budget.Adaptive
	if s := StatsVar(a.Stats).String(); !strings.Contains(s, `"retries_denied":`) || !strings.Contains(s, `"retry_ratio":`) {
		t.Fatalf("StatsVar = %s", s)
	}
	br := &budget.Breaker{Name: "x"}
	if s := BreakerStatsVar(br.Stats).String(); !strings.Contains(s, `"state":"closed"`) || !strings.Contains(s, `"name":"x"`) {
		t.Fatalf("BreakerStatsVar = %s", s)
	}
}
