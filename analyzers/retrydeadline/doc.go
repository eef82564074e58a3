// Package retrydeadline defines an Analyzer that reports retry sites not
// bounded by a deadline, and waits that ignore cancellation.
//
// # Analyzer retrydeadline
//
// retrydeadline: report retries without a deadline and sleeps that ignore the context
//
// An attempt cap bounds how many times a call is retried, not how long:
// with no deadline, one hung attempt (http.Get uses a client with no
// timeout) blocks forever, and retries go on long after the caller gave
// up, adding load nobody is waiting for. A deadline over all attempts,
// observed between them, ends the work when it is no longer wanted.
//
// Reported:
//
//  1. a retry site whose attempts run under a context known to have no
//     deadline (context.Background/TODO made in the function) or under none
//     at all (http.Get, http.DefaultClient, a local http.Client without
//     Timeout, net.Dial), with no per-attempt timeout and no elapsed-time
//     limit, at the loop;
//  2. a wait with time.Sleep (or <-time.After) while a context.Context or a
//     stop channel is in scope that the loop never consults, at the sleep.
//     A loop that checks ctx.Err() or ctx.Done() between attempts consults
//     it; passing the context to the retried call does not.
//
// Wrong:
//
//	for i := 0; i < 3; i++ {
//		if err := call(ctx); err == nil {
//			return nil
//		}
//		time.Sleep(time.Second)
//	}
//
// Right:
//
//	if err := budget.Sleep(ctx, budget.Jitter(time.Second)); err != nil {
//		return err
//	}
//
// Not reported: contexts received as parameters (the caller's deadline),
// contexts derived with WithTimeout/WithDeadline, clients with Timeout,
// loops that check elapsed time, contexts the analysis cannot see.
//
// Flags: -retrydeadline.tests.
//
// Since v0.1.0.
package retrydeadline

const doc = `report retries without a deadline and sleeps that ignore the context

Attempts with no deadline can hang forever and go on after the caller gave
up; a time.Sleep between attempts while a context is in scope ignores its
cancellation. Use a context with a timeout and wait with budget.Sleep(ctx, d).`
