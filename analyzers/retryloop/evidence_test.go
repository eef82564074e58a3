package retryloop_test

import (
	"go/ast"
	"go/token"
	"testing"

	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
	"github.com/retrylint/retrylint/analyzers/retryloop"
)

// TestLibraryEvidence pins how a library site's findings become its
// evidence: each finding makes its property absent, or present and
// wrong; the attempts and budget libmodel counted make theirs known; the
// rest is unknown, never absent.
func TestLibraryEvidence(t *testing.T) {
	call := &ast.CallExpr{Fun: &ast.Ident{Name: "Do", NamePos: 10}, Lparen: 12, Rparen: 13}
	at := func(cat string) libmodel.Finding { return libmodel.Finding{Category: cat, Pos: 20, End: 30} }
	type want struct {
		wait, jitter, cap, budget, deadline, cancel retryloop.State
		delay                                       retryloop.Growth
	}
	u, a, p := retryloop.StateUnknown, retryloop.StateAbsent, retryloop.StatePresent
	for _, tc := range []struct {
		name       string
		findings   []libmodel.Finding
		attempts   int
		budgetless bool
		want       want
	}{
		{"nothing shown", nil, retryloop.AttemptsUnknown, false, want{u, u, u, u, u, u, retryloop.GrowthUnknown}},
		{"fixed delay, capped", []libmodel.Finding{at(libmodel.CatFixedDelay)}, 3, false, want{p, a, p, u, u, u, retryloop.GrowthFixed}},
		{"no delay", []libmodel.Finding{at(libmodel.CatNoDelay)}, 3, false, want{a, u, p, u, u, u, retryloop.GrowthAbsent}},
		{"growth without jitter, no budget", []libmodel.Finding{at(libmodel.CatNoJitter), at(libmodel.CatNoBudget)}, retryloop.AttemptsUnknown, true, want{p, a, u, a, u, u, retryloop.GrowthGrowing}},
		{"unbounded over a capped count", []libmodel.Finding{at(libmodel.CatUnbounded)}, 5, false, want{u, u, a, u, u, u, retryloop.GrowthUnknown}},
		{"budgetless library, nothing found", nil, retryloop.AttemptsUnbounded, true, want{u, u, a, a, u, u, retryloop.GrowthUnknown}},
		{"caller's context never observed", []libmodel.Finding{at(libmodel.CatNoContext)}, 3, false, want{u, u, p, u, a, a, retryloop.GrowthUnknown}},
		{"background context", []libmodel.Finding{at(libmodel.CatBackground)}, 3, false, want{u, u, p, u, a, u, retryloop.GrowthUnknown}},
	} {
		s := &retryloop.Site{Shape: retryloop.ShapeLibrary, Node: call, Pos: call.Pos(), End: call.End(),
			LibFindings: tc.findings, Attempts: tc.attempts, LibBudgetless: tc.budgetless}
		ev := s.Evidence()
		got := want{ev.Wait.State, ev.Jitter.State, ev.Cap.State, ev.Budget.State, ev.Deadline.State, ev.Cancel.State, ev.Delay}
		if got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
		for _, e := range []retryloop.Evidence{ev.Wait, ev.Jitter, ev.Cap, ev.Budget, ev.Deadline, ev.Cancel} {
			if e.State == retryloop.StateUnknown && e.Why == "" {
				t.Errorf("%s: an unknown property without a reason", tc.name)
			}
			if e.State == retryloop.StateAbsent && len(e.Pos) == 0 {
				t.Errorf("%s: an absent property without a position", tc.name)
			}
		}
	}
}

// TestLibraryFindings pins what one check reads of a library site: the
// first finding on its properties for a call, every one for a service
// config.
func TestLibraryFindings(t *testing.T) {
	f := func(cat string, pos token.Pos) libmodel.Finding {
		return libmodel.Finding{Category: cat, Pos: pos, End: pos + 1}
	}
	fds := []libmodel.Finding{f(libmodel.CatUnbounded, 1), f(libmodel.CatNoBudget, 2), f(libmodel.CatNoJitter, 3)}
	call := &retryloop.Site{Shape: retryloop.ShapeLibrary, Node: &ast.CallExpr{}, LibFindings: fds}
	got := call.LibraryFindings(libmodel.PropCap, libmodel.PropBudget)
	if len(got) != 1 || got[0].Category != libmodel.CatUnbounded {
		t.Errorf("a call: got %v, want the unbounded finding alone", got)
	}
	if got := call.LibraryFindings(libmodel.PropWait); len(got) != 0 {
		t.Errorf("no wait finding: got %v", got)
	}
	config := &retryloop.Site{Shape: retryloop.ShapeLibrary, Node: &ast.File{}, LibFindings: []libmodel.Finding{
		f(libmodel.CatGRPCMaxAttempts, 1), f(libmodel.CatGRPCMaxAttempts, 5), f(libmodel.CatGRPCThrottling, 9)}}
	if got := config.LibraryFindings(libmodel.PropCap, libmodel.PropBudget, libmodel.PropConfig); len(got) != 3 {
		t.Errorf("a service config: got %d findings, want all 3", len(got))
	}
}
