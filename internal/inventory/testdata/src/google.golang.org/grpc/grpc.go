// Package grpc stands in for google.golang.org/grpc: the call option
// type that marks a generated client method.
package grpc

type CallOption interface{ before() }
