// Package registry keeps one retry budget per dependency by name and
// publishes budget and breaker counters through expvar, for the services
// that want them. Package budget itself holds no such state: a Registry is
// a value the service creates, and nothing is published unless it asks.
//
//	var deps registry.Registry // one per process, or per subsystem
//
//	err := budget.Do(ctx, callLedger, budget.WithBudget(deps.Budget("ledger")))
//
//	expvar.Publish("retry_budgets", &deps) // {"ledger": {"requests": …}, …}
//
// The package does not import expvar, which would register /debug/vars for
// every program that links it: a Registry, StatsVar and BreakerStatsVar are
// expvar.Var values (they have a String method returning JSON) that the
// caller publishes.
package registry

import (
	"encoding/json"
	"sort"
	"sync"

	"github.com/retrylint/retrylint/budget"
)

// Registry holds one budget.Adaptive per dependency name. The zero
// Registry is empty and ready to use; it is safe for concurrent use and
// must not be copied after first use.
type Registry struct {
	m sync.Map // string -> *budget.Adaptive
}

// Budget returns the budget of the dependency called name, a zero
// budget.Adaptive created on first use; every call with the same name gets
// the same budget, so one failing dependency cannot starve the retries of
// another.
func (r *Registry) Budget(name string) *budget.Adaptive {
	if b, ok := r.m.Load(name); ok {
		return b.(*budget.Adaptive)
	}
	b, _ := r.m.LoadOrStore(name, new(budget.Adaptive))
	return b.(*budget.Adaptive)
}

// Names returns the names Budget has been called with, sorted.
func (r *Registry) Names() []string {
	var names []string
	r.m.Range(func(k, _ any) bool {
		names = append(names, k.(string))
		return true
	})
	sort.Strings(names)
	return names
}

// String returns the Stats of every budget as one JSON object keyed by
// name, which makes a *Registry an expvar.Var.
func (r *Registry) String() string {
	m := map[string]statsJSON{}
	r.m.Range(func(k, v any) bool {
		m[k.(string)] = asJSON(v.(*budget.Adaptive).Stats())
		return true
	})
	out, _ := json.Marshal(m) // plain numbers: cannot fail; keys sorted
	return string(out)
}

// statsJSON is how budget.Stats look on /debug/vars.
type statsJSON struct {
	Requests       uint64  `json:"requests"`
	Failures       uint64  `json:"failures"`
	RetriesAllowed uint64  `json:"retries_allowed"`
	RetriesDenied  uint64  `json:"retries_denied"`
	RetryRatio     float64 `json:"retry_ratio"`
}

func asJSON(s budget.Stats) statsJSON {
	return statsJSON{s.Requests, s.Failures, s.RetriesAllowed, s.RetriesDenied, s.RetryRatio()}
}

// StatsVar adapts a budget's Stats method to expvar: its String method
// returns the stats as a JSON object. RetriesDenied is the seed's
// retry-budget-exhausted counter and retry_ratio its retry-amplification
// SLI:
//
//	expvar.Publish("ledger_retries", registry.StatsVar(ledgerBudget.Stats))
type StatsVar func() budget.Stats

// String returns the stats as JSON.
func (f StatsVar) String() string {
	out, _ := json.Marshal(asJSON(f()))
	return string(out)
}

// BreakerStatsVar adapts Breaker.Stats to expvar as StatsVar does a
// budget's.
type BreakerStatsVar func() budget.BreakerStats

// String returns the stats as JSON, the state as a word.
func (f BreakerStatsVar) String() string {
	s := f()
	out, _ := json.Marshal(struct {
		Name     string `json:"name,omitempty"`
		State    string `json:"state"`
		Requests uint64 `json:"requests"`
		Failures uint64 `json:"failures"`
		Rejected uint64 `json:"rejected"`
		Opens    uint64 `json:"opens"`
	}{s.Name, s.State.String(), s.Requests, s.Failures, s.Rejected, s.Opens})
	return string(out)
}
