package budget

import (
	"encoding/json"
	"sort"
	"sync"
)

// named holds the process-wide budgets of Named, one per dependency.
var named sync.Map // string -> *Budget

// Named returns the process-wide Budget of the dependency called name, a
// zero (adaptive) Budget created on first use; every call with the same
// name gets the same Budget. Do and DoValue use it with WithName, so that
// one failing dependency cannot starve the retries of another, as it can
// through the one DefaultBudget. It is safe for concurrent use.
func Named(name string) *Budget {
	if b, ok := named.Load(name); ok {
		return b.(*Budget)
	}
	b, _ := named.LoadOrStore(name, new(Budget))
	return b.(*Budget)
}

// WithName makes a call spend the budget of the dependency called name:
// Named(name). WithBudget, if also given, wins.
func WithName(name string) Option {
	return Option{func(c *config) { c.name = name }}
}

// statsJSON is how Stats look on /debug/vars.
type statsJSON struct {
	Requests       uint64  `json:"requests"`
	Failures       uint64  `json:"failures"`
	RetriesAllowed uint64  `json:"retries_allowed"`
	RetriesDenied  uint64  `json:"retries_denied"`
	RetryRatio     float64 `json:"retry_ratio"`
}

func (s Stats) asJSON() statsJSON {
	return statsJSON{s.Requests, s.Failures, s.RetriesAllowed, s.RetriesDenied, s.RetryRatio()}
}

// StatsVar adapts a Stats method to expvar: its String method returns the
// stats as a JSON object, so expvar.Publish accepts it without this
// package importing expvar (which would register /debug/vars for every
// user). RetriesDenied is the seed's retry-budget-exhausted counter and
// retry_ratio its retry-amplification SLI:
//
//	expvar.Publish("ledger_retries", budget.StatsVar(ledgerBudget.Stats))
type StatsVar func() Stats

// String returns the stats as JSON.
func (f StatsVar) String() string {
	out, _ := json.Marshal(f().asJSON()) // plain numbers: cannot fail
	return string(out)
}

// BreakerStatsVar adapts Breaker.Stats to expvar as StatsVar does Stats.
type BreakerStatsVar func() BreakerStats

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

// Vars returns an expvar.Var (a value with a String method) reporting the
// Stats of DefaultBudget, under "default", and of every budget of Named,
// under its name, as one JSON object:
//
//	expvar.Publish("retry_budgets", budget.Vars())
func Vars() interface{ String() string } { return varsFunc(allStats) }

type varsFunc func() map[string]statsJSON

func (f varsFunc) String() string {
	out, _ := json.Marshal(f()) // map keys are sorted by encoding/json
	return string(out)
}

func allStats() map[string]statsJSON {
	m := map[string]statsJSON{"default": DefaultBudget.Stats().asJSON()}
	named.Range(func(k, v any) bool {
		m[k.(string)] = v.(*Budget).Stats().asJSON()
		return true
	})
	return m
}

// NamedBudgets returns the names Named has been called with, sorted.
func NamedBudgets() []string {
	var names []string
	named.Range(func(k, _ any) bool {
		names = append(names, k.(string))
		return true
	})
	sort.Strings(names)
	return names
}
