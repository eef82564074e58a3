// Package svc is a fixture: time.Sleep calls whose root cause, func root,
// is in view (-sleeptest.group reports them at it).
package svc

import "time"

func root() {}

func A() { time.Sleep(time.Second) }
