package client

import (
	"time"

	"layers/transport"
)

// SendEvent retries a service call whose request config retries too.
func SendEvent(c *transport.Config) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop retries a call that already retries: at least 3 × \? attempts per call; retry at one layer, the one nearest the dependency \(transport.\(\*Config\).Execute\)`
		if err = c.Execute(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// SendEventOnce retries a call that sends once through the handler.
func SendEventOnce(c *transport.Config) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.ExecuteOnce(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
