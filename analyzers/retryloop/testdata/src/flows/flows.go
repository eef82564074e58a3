// Package flows pins what the model records of each retried operation's
// outcomes — where its success leaves, where its failure gives up or
// goes round — and the statement that follows the loop: what the fixes
// read instead of deciding the loop again. Lines are this file's.
package flows

import (
	"context"
	"errors"
	"log"
	"net/http"
	"time"
)

var errPermanent = errors.New("permanent")

func counted(op func() error) error {
	for i := 0; i < 3; i++ { // want `flow op=op exits=\[\+2\] success=\[\] giveup=\[\] round=\[end\] after=ReturnStmt\+6 labeled=false kept=\[\]`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func permanent(op func() error) error {
	for { // want `flow op=op exits=\[\+3\] success=\[\] giveup=\[\+6\] round=\[end\] after=- labeled=false kept=\[\]`
		err := op()
		if err == nil {
			return nil
		}
		if errors.Is(err, errPermanent) {
			return err
		}
		time.Sleep(time.Second)
	}
}

func continued(op func() error) error {
	for i := 0; i < 3; i++ { // want `flow op=op exits=\[\+5\] success=\[\] giveup=\[\] round=\[\+3\] after=ReturnStmt\+7 labeled=false kept=\[\]`
		if err := op(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		return nil
	}
	return errors.New("gave up")
}

func breaks(op func() error) error {
	var err error
	for { // want `flow op=op exits=\[\+2\] success=\[\] giveup=\[\] round=\[end\] after=ReturnStmt\+6 labeled=false kept=\[err\+1\]`
		if err = op(); err == nil {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

func aborts(op func() error) {
	for { // want `flow op=op exits=\[\+3\] success=\[\] giveup=\[\+6\] round=\[end\] after=- labeled=false kept=\[\]`
		err := op()
		if err == nil {
			return
		}
		if errors.Is(err, errPermanent) {
			log.Fatal(err)
		}
		time.Sleep(time.Second)
	}
}

func flag(op func() error) {
	done := false
	for !done { // want `flow op=op exits=\[cond\] success=\[end\] giveup=\[\] round=\[end\] after=- labeled=false kept=\[\]`
		if err := op(); err == nil {
			done = true
		} else {
			time.Sleep(time.Second)
		}
	}
}

func labeled(op func() error) error {
retry:
	for i := 0; i < 3; i++ { // want `flow op=op exits=\[\+2\] success=\[\] giveup=\[\] round=\[\+5\] after=ReturnStmt\+7 labeled=true kept=\[\]`
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
		continue retry
	}
	return errors.New("gave up")
}

func inCase(op func() error, n int) error {
	switch n {
	case 1:
		for i := 0; i < n; i++ { // want `flow op=op exits=\[\+2\] success=\[\] giveup=\[\] round=\[end\] after=ReturnStmt\+6 labeled=false kept=\[\]`
			if err := op(); err == nil {
				return nil
			}
			time.Sleep(time.Second)
		}
		return errors.New("gave up")
	}
	return nil
}

// A success that goes on past the wait before it leaves: the fixes must
// not take the wait's place for a failure's alone.
func lateExit(op func() error) error {
	for { // want `flow op=op exits=\[\+7\] success=\[\] giveup=\[\] round=\[end\] after=- labeled=false kept=\[\]`
		err := op()
		if err != nil {
			log.Print(err)
		}
		time.Sleep(time.Second)
		if err == nil {
			return nil
		}
	}
}

func retryable(err error) bool { return !errors.Is(err, errPermanent) }

// One return for a success and a permanent failure: a success recorded
// there would count the failure too.
func sharedReturn(op func() error) error {
	for { // want `flow op=op exits=\[\+3\] success=\[\] giveup=\[\+3\] round=\[end\] after=- labeled=false kept=\[\]`
		err := op()
		if err == nil || !retryable(err) {
			return err
		}
		time.Sleep(time.Second)
	}
}

// The failure gives up when the caller's context is done.
func cancelled(done <-chan struct{}, op func() error) error {
	for { // want `flow op=op exits=\[\+3\] success=\[\] giveup=\[\+7\] round=\[end\] after=- labeled=false kept=\[\]`
		err := op()
		if err == nil {
			return nil
		}
		select {
		case <-done:
			return err
		case <-time.After(time.Second):
		}
	}
}

// A goto back to the attempt's label.
func again(op func() error) error {
start:
	if err := op(); err != nil {
		time.Sleep(time.Second)
		goto start // want `flow op=op exits=\[\+2\] success=\[\] giveup=\[\] round=\[\+0\] after=- labeled=false kept=\[\]`
	}
	return nil
}

// A response with a failure status and no error is returned as it is:
// only the error is the failure the loop retries, so the return of a
// response is no give-up.
func response(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `flow op=c.Do exits=\[\+3\] success=\[\] giveup=\[\+7\] round=\[end\] after=ReturnStmt\+11 labeled=false kept=\[\]`
		resp, err := c.Do(req.WithContext(ctx))
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, errors.New("gave up")
}

type client struct{ err error }

// The failures the loop keeps for the code after it: a variable and a
// field declared outside the loop; the attempt's own err is not kept.
func (c *client) keeps(op func() error) error {
	var lastErr error
	for i := 0; i < 3; i++ { // want `flow op=op exits=\[\+3\] success=\[\] giveup=\[\] round=\[end\] after=ReturnStmt\+10 labeled=false kept=\[lastErr\+5 err\+6\]`
		err := op()
		if err == nil {
			return nil
		}
		lastErr = err
		c.err = err
		time.Sleep(time.Second)
		err = nil
	}
	return lastErr
}

// Failures kept in other values: a list of them, a message. A value the
// loop keeps that holds no error (the attempt number) is not kept.
func keepsJoined(op func() error) error {
	var errs []error
	var msg string
	last := 0
	for i := 0; i < 3; i++ { // want `flow op=op exits=\[\+3\] success=\[\] giveup=\[\] round=\[end\] after=AssignStmt\+10 labeled=false kept=\[errs\+5 msg\+6\]`
		err := op()
		if err == nil {
			return nil
		}
		errs = append(errs, err)
		msg = err.Error()
		last = i
		time.Sleep(time.Second)
	}
	_ = msg
	_ = last
	return errors.Join(errs...)
}
