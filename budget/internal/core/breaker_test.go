package core

import (
	"testing"
	"time"
)

func TestBreakerInvalidConfigTakesTheDefaults(t *testing.T) {
	d := &Breaker{Cfg: BreakerConfig{FailureRatio: 1.5, MinRequests: -1, Window: -1, Cooldown: -1}}
	if d.ratio() != 0.5 || d.minRequests() != 20 || d.window() != 10*time.Second || d.cooldown() != 5*time.Second {
		t.Fatal("invalid config did not take the defaults")
	}
}
