// Package retrynested defines an Analyzer that reports retries nested
// across layers: a retry whose retried operation itself retries.
//
// # Analyzer retrynested
//
// retrynested: report retries around calls that already retry
//
// Retries multiply across layers. A handler that makes 3 attempts around a
// client that makes 4 around a transport that makes 3 sends up to 36 calls
// to the dependency for one request, and it does so exactly when the
// dependency is least able to serve them. Retry at one layer: the one
// nearest the dependency, which knows what is safe to retry and can share
// one budget.
//
// Reported, at the outer retry site, with the inner ones as related
// positions: a retry loop, goto or recursive retry, retry library call or
// generic retry helper call whose retried operation reaches another retry
// (directly, through functions that return its failure, or through facts
// across packages): a function holding a retry site, a retry library call,
// or a client with built-in retries (a go-retryablehttp client, an
// aws-sdk-go-v2 service client with its standard retryer), when at least
// one of the two layers consults no retry budget. The message gives the
// product of the attempt caps, "?" for a count the code does not show.
//
// Not reported: both layers budgeted; consume loops; client-go's
// RetryOnConflict (it retries only conflicts); an inner retry started in a
// goroutine or whose failure the outer operation drops; an aws-sdk-go-v2
// client in a package that configures a retryer (its count is unknown).
//
// Wrong:
//
//	for attempt := 0; attempt < 3; attempt++ {
//		if err = client.Send(ctx, msg); err == nil { // Send retries 4 times itself
//			return nil
//		}
//		time.Sleep(budget.Backoff(attempt))
//	}
//
// Right: let Send own the retry, and call it once.
//
//	return client.Send(ctx, msg)
//
// There is no suggested fix: which layer keeps the retry is a design
// decision.
package retrynested

const doc = `report retries around calls that already retry

Retries multiply across layers: 3 attempts around a call that makes 4 is
up to 12 calls on the dependency. retrynested reports a retry site whose
retried operation itself retries (a function holding a retry site, a retry
library call, a client with built-in retries), when at least one of the
two layers consults no budget. Retry at one layer, the one nearest the
dependency.`
