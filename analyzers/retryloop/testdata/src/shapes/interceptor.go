package shapes

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

// The next link of a gRPC interceptor chain reaches the connection:
// a call through a grpc.UnaryInvoker or grpc.Streamer value is remote.
func retryUnary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=caller remote attempts=3$`
		if err = invoker(ctx, method, req, reply, cc, opts...); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func retryStream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer) (grpc.ClientStream, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=caller remote attempts=3$`
		var s grpc.ClientStream
		if s, err = streamer(ctx, desc, cc, method); err == nil {
			return s, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

// Look-alike: a function value of a plain function type may do anything:
// its remoteness is unknown, not remote.
func retryHandler(ctx context.Context, handler func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `retry site: shape=counted bound=counter delay=fixed jitter=no ctx=caller attempts=3$`
		if err = handler(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
