package netutil

import (
	"context"
	"errors"
	"log"
	"net"
	"sort"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// dnsBudget is shared by every SRV lookup.
var dnsBudget budget.Adaptive

// ResolveSRV looks up the SRV records of a service, retrying temporary
// resolver failures.
func ResolveSRV(ctx context.Context, r *net.Resolver, service, proto, name string) ([]*net.SRV, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		_, addrs, err := r.LookupSRV(ctx, service, proto, name)
		dnsBudget.Record(err)
		if err == nil {
			sort.Slice(addrs, func(i, j int) bool { return addrs[i].Priority < addrs[j].Priority })
			return addrs, nil
		}
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
			return nil, err
		}
		lastErr = err
		if !dnsBudget.Allow() {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(budget.Jitter(100 * time.Millisecond << attempt)):
		}
	}
	return nil, lastErr
}

// ServiceResolver keeps a service's address list fresh.
type ServiceResolver struct {
	Res     *net.Resolver
	Refresh time.Duration
	Log     *log.Logger
}

// Watch re-resolves name every Refresh and hands each answer to update;
// a failed lookup keeps the previous answer until the next refresh.
func (r *ServiceResolver) Watch(ctx context.Context, name string, update func([]string)) {
	t := time.NewTicker(r.Refresh)
	defer t.Stop()
	for {
		addrs, err := r.Res.LookupHost(ctx, name)
		if err != nil {
			r.Log.Printf("resolve %s: %v", name, err)
		} else {
			update(addrs)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
