// Package retryidempotency defines an Analyzer that reports POST and PATCH
// requests re-sent by a retry loop without a stable idempotency key.
//
// # Analyzer retryidempotency
//
// retryidempotency: report non-idempotent HTTP requests re-sent without a stable idempotency key
//
// When a POST times out, the client cannot tell whether the server
// applied it: the response may simply have been lost. Re-sending it
// charges the card twice. GET, HEAD, OPTIONS, TRACE, PUT and DELETE are
// idempotent (RFC 9110 §9.2.2); POST and PATCH are not, unless the request
// carries an idempotency key (the IETF httpapi Idempotency-Key header)
// that stays the same across the attempts of one logical operation, so the
// server can recognise the retry.
//
// Reported: a POST or PATCH (http.Post, http.PostForm, a request built with
// http.NewRequest* and sent with Client.Do, or a function that sends one)
// that is a retried operation of a retry loop, when no key header is set on
// it, or when the key's value is minted afresh on every attempt.
//
// Wrong:
//
//	for i := 0; i < 3; i++ {
//		resp, err := http.Post(url, "application/json", bytes.NewReader(body))
//		...
//	}
//
// Right:
//
//	key := budget.NewIdempotencyKey() // once per logical operation
//	for i := 0; i < 3; i++ {
//		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
//		...
//		req.Header.Set("Idempotency-Key", key)
//		resp, err := client.Do(req)
//		...
//	}
//
// Not reported: idempotent methods; a method the analysis cannot resolve
// to a constant; consume loops (each message is a new operation); keys in
// the body or endpoints idempotent by their own protocol (name extra key
// headers with -retryidempotency.headers, or document the rest with
// //retrylint:ignore retryidempotency <reason>).
//
// Flags: -retryidempotency.headers, -retryidempotency.tests.
//
// Since v0.1.0.
package retryidempotency

const doc = `report non-idempotent HTTP requests re-sent without a stable idempotency key

A POST or PATCH re-sent after a lost response repeats the write. Mint an
idempotency key once per logical operation, before the retry loop, and set
it (Idempotency-Key) on every attempt.`
