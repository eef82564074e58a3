package cache

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestRetryGivesUp(t *testing.T) {
	calls := 0
	boom := errors.New("boom")
	_, err := Retry(context.Background(), 3, time.Millisecond, func(context.Context) (int, error) {
		calls++
		return 0, boom
	})
	if !errors.Is(err, boom) || calls != 3 {
		t.Fatalf("err=%v calls=%d", err, calls)
	}
}
