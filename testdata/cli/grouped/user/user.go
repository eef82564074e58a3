// Package user is a fixture: time.Sleep calls whose root cause is out of
// view (-sleeptest.group reports them at the first).
package user

import "time"

func C() { time.Sleep(time.Second) }

func D() { time.Sleep(2 * time.Second) }
