package retry

import (
	"testing"
	"time"
)

func TestWait(t *testing.T) {
	time.Sleep(time.Millisecond)
}
