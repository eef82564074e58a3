// Package codes is a stand-in for gRPC's codes package: the model matches
// it by import path.
package codes

type Code uint32

const (
	OK               Code = 0
	DeadlineExceeded Code = 4
	Unavailable      Code = 14
)
