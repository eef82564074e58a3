package retryloop

import (
	"go/ast"
	"go/token"

	"github.com/retrylint/retrylint/analyzers/internal/astq"
	"github.com/retrylint/retrylint/analyzers/internal/libmodel"
)

// State is what the code shows of one property a check judges.
type State int

const (
	StateUnknown State = iota // the code hides it (an interface, a function value, a config field)
	StateAbsent               // the code shows it is not there
	StatePresent              // the code shows it
)

var stateNames = [...]string{"unknown", "absent", "present"}

func (s State) String() string { return stateNames[s] }

// Evidence is one property of a site: its state, the positions that show
// it and, when unknown, why.
type Evidence struct {
	State State
	Pos   []token.Pos
	Why   string
}

// Evidences are the properties of a site the checks judge. A check
// speaks on Absent, or on Present and wrong (a growing delay without
// randomness); on Unknown it stays silent.
type Evidences struct {
	// Wait is a wait between attempts; Delay says how it evolves when
	// present (GrowthUnknown: a wait whose delay the model cannot judge).
	Wait  Evidence
	Delay Growth
	// Jitter is randomness in the delay: unknown when a wait's delay
	// cannot be judged.
	Jitter Evidence
	// Remote is a retried operation that reaches the network: unknown
	// when one is a function value or an interface method the model
	// cannot see into.
	Remote Evidence
	// Handed is the work a generic retry helper's callers hand it, the
	// operation its loop retries: present when a call in its package
	// hands it remote work, unknown when one hands work the model cannot
	// see into (WhyUnseenWork) or no call is in sight (WhyNoCaller),
	// absent when every call here hands it local work, or when the site
	// is no such helper.
	Handed Evidence
	// Budget is a retry budget, limiter or breaker the site consults.
	Budget Evidence
	// Cap is an attempt cap. Stop is a deadline: an elapsed-time or
	// deadline bound, a context consulted between attempts (a stop
	// channel alone may be closed only at shutdown: no deadline), or
	// the caller's deadline (or one over all attempts) handed to each.
	Cap, Stop Evidence
	// Deadline is a deadline over the attempts: a context with one, a
	// client or per-attempt timeout, or an elapsed-time bound. Absent
	// when they run under no context or one without a deadline.
	Deadline Evidence
	// Cancel is a context or stop channel in scope consulted between
	// attempts: absent when one is in scope and never consulted,
	// unknown when none is in scope (nothing to consult).
	Cancel Evidence
	// Background is the context.Background() or TODO() call, made in
	// the function, that the attempts run under, or nil.
	Background *ast.CallExpr
	// CancelBy names the context or stop channel whose Cancel evidence
	// is absent (in scope, never consulted); CancelCtx: it is a context.
	CancelBy  string
	CancelCtx bool
	// Shape is the kind of site: a loop, a generic helper's call, a
	// library's retry. Subject names it in messages.
	Shape   Shape
	Subject string
	// Work is the retried work: present when it reaches the network,
	// absent when it is known local (SPEC, "Retries of local work"),
	// unknown otherwise.
	Work Evidence
	// Repair: one re-attempt after a corrective action, not a retry
	// (SPEC, "A repair is not a retry").
	Repair bool
	// Consume: the error branch of a consume loop, which goes on after a
	// success too (SPEC, "Consume loops").
	Consume bool
	// QuietBeside: no wait is seen, and every call of the loop but its
	// operations is known local, so none hides one: no wait even where
	// the operations are unknown.
	QuietBeside bool
	// Attempts is the most attempts one run of the site makes
	// (AttemptsUnknown, AttemptsUnbounded); Inner are the retry layers its retried work
	// reaches, whose attempts multiply its own.
	Attempts int
	Inner    []*Layer
	// Waits are the waits between attempts, each with its delay, the
	// delay's growth and randomness, and where they are decided.
	Waits []*Wait
}

// siteEvidence is what every kind of site shows of itself.
func (s *Site) siteEvidence(ev *Evidences) {
	ev.Shape, ev.Subject, ev.Repair, ev.Waits = s.Shape, s.Subject(), s.Repair, s.Waits
	ev.Consume, ev.QuietBeside, ev.Background = s.Consume, s.QuietBeside, s.Ctx.BackgroundCall
	ev.Attempts, ev.Inner = s.Attempts, s.Inner
	switch {
	case s.LocalWork():
		ev.Work = Evidence{State: StateAbsent}
	case s.RetriesRemote():
		ev.Work = Evidence{State: StatePresent}
	default:
		ev.Work = Evidence{State: StateUnknown, Why: "work the model cannot see into"}
	}
}

// Evidence is what the site shows of each property: computed once, when
// the model has finished the site, and read by every check.
func (s *Site) Evidence() Evidences {
	if s.ev != nil {
		return *s.ev
	}
	return s.evidence()
}

// evidence assembles what the site shows of each property.
func (s *Site) evidence() Evidences {
	if s.Shape == ShapeLibrary {
		return s.libraryEvidence()
	}
	ev := Evidences{Delay: s.Delay()}
	s.siteEvidence(&ev)
	ev.Wait = s.waitEvidence()
	ev.Jitter = s.jitterEvidence()
	ev.Remote = s.remoteEvidence()
	ev.Handed = s.handedEvidence()
	if s.Budgeted() {
		ev.Budget = Evidence{State: StatePresent, Pos: s.Budget}
	} else {
		ev.Budget = Evidence{State: StateAbsent}
	}
	switch {
	case s.Bound == BoundCounter:
		ev.Cap = Evidence{State: StatePresent, Pos: []token.Pos{s.BoundPos}}
	case s.Bound == BoundUnknown:
		ev.Cap = Evidence{State: StateUnknown, Pos: []token.Pos{s.BoundPos}, Why: "a bound the code does not show (library configuration)"}
	case s.HandedOp != nil && !s.HandedPlain:
		ev.Cap = Evidence{State: StateUnknown, Why: "a retry decision in a call the model does not follow"}
	default:
		ev.Cap = Evidence{State: StateAbsent}
	}
	switch {
	case s.Bound == BoundElapsed || s.Bound == BoundDeadline:
		ev.Stop = Evidence{State: StatePresent, Pos: []token.Pos{s.BoundPos}}
	case s.Ctx.Consulted && (s.Ctx.InScope != nil || s.Ctx.StopChan == nil):
		ev.Stop = Evidence{State: StatePresent}
	case s.Ctx.Attempts == DeadlineCaller, s.Ctx.Attempts == DeadlineSet && !s.Ctx.AttemptTimeout:
		// The attempts run under the caller's deadline, or one derived
		// over all of them (SPEC, "The caller's deadline"): not
		// unbounded, even without an attempt cap. A per-attempt
		// timeout alone bounds an attempt, not the retry.
		ev.Stop = Evidence{State: StatePresent}
	default:
		ev.Stop = Evidence{State: StateAbsent}
	}
	ev.Deadline = s.deadlineEvidence()
	switch {
	case s.Ctx.Consulted:
		ev.Cancel = Evidence{State: StatePresent}
	case s.Ctx.InScope != nil:
		ev.Cancel = Evidence{State: StateAbsent, Pos: []token.Pos{s.Ctx.InScope.Pos()}}
		ev.CancelBy, ev.CancelCtx = s.Ctx.InScope.Name(), true
	case s.Ctx.StopChan != nil:
		ev.Cancel = Evidence{State: StateAbsent, Pos: []token.Pos{s.Ctx.StopChan.Pos()}}
		ev.CancelBy = s.Ctx.StopChan.Name()
	default:
		ev.Cancel = Evidence{State: StateUnknown, Why: "no context or stop channel in scope"}
	}
	return ev
}

// Why a generic helper's handed work is unknown.
const (
	WhyNoCaller   = "no call hands it work in sight"
	WhyUnseenWork = "a call hands it work the model cannot see into"
	WhyNoValue    = "no call hands it a value in sight"
)

// JudgedAlone reports whether a generic helper is judged on what it
// shows, whatever work it is handed: a call in its package hands it
// remote work, or no call hands it any in sight. One that is handed only
// local work, or work the model cannot see into (a connection pool's
// next connection), is not judged on its own.
func JudgedAlone(ev Evidences) bool {
	return ev.Handed.State == StatePresent || ev.Handed.State == StateUnknown && ev.Handed.Why == WhyNoCaller
}

// handedEvidence is what the calls in its package hand a generic helper.
func (s *Site) handedEvidence() Evidence {
	switch {
	case s.HandedOp == nil:
		return Evidence{State: StateAbsent}
	case s.Handed != StateUnknown:
		return Evidence{State: s.Handed, Pos: s.HandedPos}
	case s.HandedCalls == 0 && s.HandedFunc:
		return Evidence{State: StateUnknown, Why: WhyNoCaller}
	case s.HandedCalls == 0:
		// A helper of an interface value it is given: its methods
		// could be anything, and what a value does is not known.
		return Evidence{State: StateUnknown, Why: WhyNoValue}
	}
	return Evidence{State: StateUnknown, Why: WhyUnseenWork}
}

func (s *Site) deadlineEvidence() Evidence {
	switch {
	case s.Ctx.AttemptTimeout || s.Bound == BoundElapsed:
		return Evidence{State: StatePresent, Pos: []token.Pos{s.BoundPos}}
	case s.Ctx.Attempts == DeadlineSet || s.Ctx.Attempts == DeadlineCaller:
		return Evidence{State: StatePresent}
	case s.Ctx.Attempts == DeadlineNone:
		e := Evidence{State: StateAbsent}
		if s.Ctx.BackgroundCall != nil {
			e.Pos = []token.Pos{s.Ctx.BackgroundCall.Pos()}
		}
		return e
	}
	return Evidence{State: StateUnknown, Why: "a context the model cannot trace"}
}

func (s *Site) waitEvidence() Evidence {
	if len(s.Waits) == 0 {
		return Evidence{State: StateAbsent}
	}
	e := Evidence{State: StatePresent}
	for _, w := range s.Waits {
		e.Pos = append(e.Pos, w.Node.Pos())
	}
	return e
}

func (s *Site) jitterEvidence() Evidence {
	e := Evidence{State: StateAbsent}
	for _, w := range s.Waits {
		switch {
		case w.Jitter:
			if e.State != StatePresent {
				e = Evidence{State: StatePresent}
			}
			e.Pos = append(e.Pos, w.Node.Pos())
		case w.Growth == GrowthUnknown && e.State == StateAbsent:
			e = Evidence{State: StateUnknown, Pos: []token.Pos{w.Node.Pos()}, Why: "a delay the model cannot judge"}
		}
	}
	return e
}

// remoteWhy says why a site's remoteness is unknown: one of its
// operations is a call through a function value or an interface method
// the model cannot see into. Empty when every operation is seen.
func (w *walker) remoteWhy(site *Site) string {
	for _, op := range site.Ops {
		if _, lit := ast.Unparen(op.Fun).(*ast.FuncLit); lit {
			continue
		}
		fn := astq.Callee(w.info, op)
		switch {
		case fn == nil && w.localFunc(op.Fun) == nil:
			return "a function value"
		case fn != nil && isInterfaceMethod(fn):
			return "an interface method"
		}
	}
	return ""
}

// RequestEvidence is what the code shows of one HTTP request a site
// sends: whether it is a write (POST or PATCH; unknown when the method
// does not resolve to a constant), whether it carries an idempotency key,
// and whether that key is minted afresh on every attempt.
type RequestEvidence struct {
	// Resent: the request is sent by a retried operation (present), or
	// only beside one (absent).
	Resent               Evidence
	Write, Key, FreshKey Evidence
}

// RequestEvidence assembles what one of the site's requests shows; extra
// are the key header names the user added (-retryidempotency.headers).
func (s *Site) RequestEvidence(r *Request, extra []string) RequestEvidence {
	ev := r.Evidence(extra)
	ev.Resent = Evidence{State: StateAbsent}
	if s.resends(r) {
		ev.Resent = Evidence{State: StatePresent, Pos: []token.Pos{r.Send.Pos()}}
	}
	return ev
}

// resends reports whether r is sent by one of the site's retried
// operations (or the closure a helper call is handed).
func (s *Site) resends(r *Request) bool {
	if f := s.OpFunc; f != nil && f.Pos() <= r.Send.Pos() && r.Send.End() <= f.End() {
		return true
	}
	for _, op := range s.Ops {
		if op == r.Send || op.Pos() <= r.Send.Pos() && r.Send.End() <= op.End() {
			return true
		}
	}
	return false
}

// Evidence assembles what the request shows by itself; extra are the key
// header names the user added (-retryidempotency.headers).
func (r *Request) Evidence(extra []string) RequestEvidence {
	var ev RequestEvidence
	switch {
	case r.NonIdempotent():
		ev.Write = Evidence{State: StatePresent, Pos: []token.Pos{r.Pos}}
	case r.Method == "":
		ev.Write = Evidence{State: StateUnknown, Pos: []token.Pos{r.Pos}, Why: "a method that is no constant"}
	default:
		ev.Write = Evidence{State: StateAbsent, Pos: []token.Pos{r.Pos}}
	}
	ev.Key = Evidence{State: StateAbsent}
	if r.HasKey(extra) {
		ev.Key = Evidence{State: StatePresent}
		if r.KeyPos.IsValid() {
			ev.Key.Pos = []token.Pos{r.KeyPos}
		}
	}
	ev.FreshKey = Evidence{State: StateAbsent}
	if r.KeyInLoop {
		ev.FreshKey = Evidence{State: StatePresent}
		if r.KeyPos.IsValid() {
			ev.FreshKey.Pos = []token.Pos{r.KeyPos}
		}
	}
	return ev
}

// WhyLibrary: the library call's configuration does not decide the
// property (a default, an option from elsewhere).
const WhyLibrary = "the library configuration in view does not decide it"

// libraryEvidence is what a library call's configuration shows, as
// libmodel read it: each finding makes its property absent, or present
// and wrong; the attempts and the budget libmodel could count make theirs
// known; every other property is unknown.
func (s *Site) libraryEvidence() Evidences {
	unknown := Evidence{State: StateUnknown, Why: WhyLibrary}
	ev := Evidences{Delay: GrowthUnknown, Wait: unknown, Jitter: unknown, Budget: unknown, Cap: unknown, Stop: unknown, Deadline: unknown, Cancel: unknown}
	s.siteEvidence(&ev)
	ev.Remote = s.remoteEvidence()
	if s.serviceConfig() {
		// A service config retries the connection's RPCs.
		ev.Remote = Evidence{State: StatePresent, Pos: []token.Pos{s.Pos}}
	}
	ev.Handed = s.handedEvidence()
	switch {
	case s.Attempts > 0:
		ev.Cap = Evidence{State: StatePresent, Pos: []token.Pos{s.Pos}}
	case s.Attempts == AttemptsUnbounded:
		ev.Cap = Evidence{State: StateAbsent, Pos: []token.Pos{s.Pos}}
	}
	if s.LibBudgetless {
		ev.Budget = Evidence{State: StateAbsent, Pos: []token.Pos{s.Pos}}
	}
	for _, f := range s.LibFindings {
		absent := Evidence{State: StateAbsent, Pos: []token.Pos{f.Pos}}
		switch f.Category {
		case libmodel.CatNoDelay:
			ev.Wait, ev.Delay = absent, GrowthAbsent
		case libmodel.CatFixedDelay:
			ev.Wait, ev.Delay, ev.Jitter = Evidence{State: StatePresent, Pos: absent.Pos}, GrowthFixed, absent
		case libmodel.CatNoJitter:
			ev.Wait, ev.Delay, ev.Jitter = Evidence{State: StatePresent, Pos: absent.Pos}, GrowthGrowing, absent
		case libmodel.CatUnbounded:
			ev.Cap = absent
		case libmodel.CatNoBudget, libmodel.CatGRPCThrottling:
			ev.Budget = absent
		case libmodel.CatNoContext:
			ev.Deadline, ev.Cancel = absent, absent
		case libmodel.CatBackground:
			ev.Deadline = absent
		}
	}
	return ev
}

func (s *Site) remoteEvidence() Evidence {
	switch {
	case s.Remote != nil:
		return Evidence{State: StatePresent, Pos: []token.Pos{s.Remote.Pos()}}
	case s.RemoteWhy != "":
		return Evidence{State: StateUnknown, Why: s.RemoteWhy}
	}
	return Evidence{State: StateAbsent}
}
