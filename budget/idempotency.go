package budget

import (
	"crypto/rand"
	"encoding/hex"
)

// NewIdempotencyKey returns a new random idempotency key: 128 bits from
// crypto/rand in the text form of a version 4 UUID, such as
// "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b" (122 random bits; the version and
// variant bits are fixed).
//
// Mint one key per logical operation, before the retry loop, and send the
// same key with every attempt of that operation: the server uses it to
// recognise a repeat and answer it without doing the work twice. A key minted
// inside the loop is a new operation on every attempt and protects nothing.
//
// It is safe for concurrent use. It panics only if the operating system's
// random source fails, which crypto/rand treats as unrecoverable from Go 1.24.
func NewIdempotencyKey() string {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		panic("budget: reading crypto/rand: " + err.Error())
	}
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // variant 10 (RFC 9562)
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:36], u[10:16])
	return string(b[:])
}
