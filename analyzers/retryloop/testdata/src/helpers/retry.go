package helpers

import "time"

// Retry is a generic retry helper: it retries fn, waiting delay between attempts.
func Retry(attempts int, delay time.Duration, fn func() error) (err error) { // want Retry:`func: retrier\(op=2 delay=1 grows=false\)`
	for i := 0; i < attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
		time.Sleep(delay)
	}
	return err
}

// RetryGrow doubles the delay it is given.
func RetryGrow(attempts int, sleep time.Duration, fn func() error) (err error) { // want RetryGrow:`func: retrier\(op=2 delay=1 grows=true\)`
	for i := 0; i < attempts; i++ {
		if i > 0 {
			time.Sleep(sleep)
			sleep *= 2
		}
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}
