// Package status is a stand-in for gRPC's status package: Code(nil) is
// codes.OK, as in the real one.
package status

import "google.golang.org/grpc/codes"

type coder interface{ Code() codes.Code }

func Code(err error) codes.Code {
	if err == nil {
		return codes.OK
	}
	if c, ok := err.(coder); ok {
		return c.Code()
	}
	return 2
}
