// Package retryloop finds and classifies retry sites once for the
// retrylint analyzers, which only decide and word.
//
// A retry site is code that runs the same operation again after it
// failed: a loop (counted, range n, bare, flag-driven), a goto back to a
// label, or a function that calls itself, in which a failure of an
// operation leads to another attempt and success leaves. For each site
// the Result records the retried operations, the bound, the waits
// between attempts (how the delay evolves and whether it is random), the
// context and its deadline, budget consultations and the HTTP requests
// sent. Facts carry what crosses packages: whether a function reaches the
// network, consults a budget, sends a non-idempotent request without a
// key, waits, or computes a delay.
//
// One subject per file:
//
//   - retryloop.go: the analyzer, its options and the walk of one pass
//   - site.go: the Result, the Site, the Request, the Wait, the Counter
//     and the Flow (what the path simulation found of each retried
//     operation: where its success leaves, where its failure gives up or
//     goes round, which the fixes read) and their methods
//   - loops.go: candidate sites (for and range loops, goto, recursion), the
//     operations they retry and the bound of their attempts
//   - outcome.go: the path simulation of one round under success and
//     under each operation's failure: the paths and the walk of the
//     statements
//   - values.go: what a path knows of values as it goes (the effects of
//     an expression, the operations' results, timers re-armed and delays
//     chosen, error values)
//   - conditions.go: a branch's condition evaluated on a path (error
//     classifiers and judges, status-code comparisons, whether the
//     outcome decided it)
//   - retried.go: what the walks decide (the retried operations,
//     consume, the waits on the retrying paths, each operation's Flow)
//   - exclude.go: loops that are not retries (failover over a list,
//     collection, work receivers)
//   - waits.go: what a wait is (sleep, timer, select, ticker, a helper)
//   - delays.go: how its delay evolves (fixed, growing, unknown) and
//     whether it is random
//   - deadline.go: the context in scope and its deadline
//   - requests.go: the HTTP requests the retried operations send, their
//     methods and key headers
//   - resend.go: requests built in one function and re-sent by a retrying
//     client in another
//   - remote.go: what reaches the network
//   - polarity.go: status-code classifiers (sets and predicates), error
//     classifiers read at a nil error, retry flags returned beside an error
//   - helpers.go: calls of generic retry helpers and retry library sites
//   - poll.go: poll helpers, and the conditions that make a call of one a
//     retry (a failed remote call turned into "not yet")
//   - layers.go: attempt counts and nested retry layers
//   - facts.go: the facts of the package's functions, to a fixed point
//   - describe.go: what a site touches (remote calls, budgets, context,
//     requests), found
//   - evidence.go: what the code shows of each property a check judges:
//     present, absent or unknown, with the positions and the reason; for
//     a library site, what libmodel's findings show of its configuration
//   - calls.go: values and variables of the package (what a variable
//     holds, who writes it); matching callees by path, nil and variable
//     references are internal/astq's, shared with libmodel and the fixes
package retryloop
