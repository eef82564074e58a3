package svc

import "time"

func B() { time.Sleep(2 * time.Second) }
