// Package pb is a generated-style gRPC client.
package pb

import (
	"context"

	"google.golang.org/grpc"
)

type Req struct{}
type Resp struct{}

type LedgerClient interface {
	GetBalance(ctx context.Context, in *Req, opts ...grpc.CallOption) (*Resp, error)
}
