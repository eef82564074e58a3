// Package counters pins what the model records of a counted loop's
// counter: the variable, the limit and its value, and whether the loop is
// plain (from 0 up by one below the limit, the variable unused).
package counters

import (
	"errors"
	"time"
)

const attempts = 3

func plainThreeClause(op func() error) error {
	for i := 0; i < attempts; i++ { // want `counter var=i limit=attempts n=3 plain=true steps=true`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func plainRange(op func() error) error {
	for range 4 { // want `counter var=- limit=4 n=4 plain=true steps=false`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Look-alikes: not plain, or no constant limit.

func keyRead(op func(int) error) error {
	for i := range 5 { // want `counter var=i limit=5 n=5 plain=false steps=true`
		if err := op(i); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func fromOne(op func() error) error {
	for i := 1; i <= 3; i++ { // want `counter var=i limit=- n=0 plain=false steps=false`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func countDown(op func() error) error {
	for n := 3; n > 0; n-- { // want `counter var=n limit=- n=0 plain=false steps=false`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func configured(op func() error, max int) error {
	for i := 0; i < max; i++ { // want `counter var=i limit=max n=0 plain=true steps=true`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func logged(op func() error, log func(int)) error {
	for i := 0; i < 3; i++ { // want `counter var=i limit=3 n=3 plain=false steps=true`
		if err := op(); err == nil {
			return nil
		}
		log(i)
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The header counts while the bound is in the body: the counter still
// tells the first attempt from the retries.
func boundInBody(op func() error) error {
	for i := 0; ; i++ { // want `counter var=i limit=- n=0 plain=false steps=true`
		if err := op(); err == nil {
			return nil
		}
		if i == 4 {
			return errors.New("gave up")
		}
		time.Sleep(time.Second)
	}
}

// Look-alikes of a stepping counter: the body moves it, or takes its
// address.
func skipsAhead(op func() error) error {
	for i := 0; i < 6; i++ { // want `counter var=i limit=6 n=6 plain=false steps=false`
		if err := op(); err == nil {
			return nil
		}
		i++
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func addressed(op func() error, note func(*int)) error {
	for i := 0; ; i++ { // want `counter var=i limit=- n=0 plain=false steps=false`
		if err := op(); err == nil {
			return nil
		}
		note(&i)
		if i > 4 {
			return errors.New("gave up")
		}
		time.Sleep(time.Second)
	}
}

// A bare loop counts nothing in its header.
func bare(op func() error) error {
	n := 0
	for {
		if err := op(); err == nil {
			return nil
		}
		if n++; n > 4 {
			return errors.New("gave up")
		}
		time.Sleep(time.Second)
	}
}
