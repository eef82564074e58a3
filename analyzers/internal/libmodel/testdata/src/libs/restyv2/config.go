package restyv2

import (
	"github.com/go-resty/resty/v2"

	"libs/remote"
)

type api struct {
	rc *resty.Client
}

// Retries switched on for a client the function does not own: every
// request through it elsewhere retries, so the budget is judged here.
func configure(a *api) {
	a.rc.SetRetryCount(5).AddRetryCondition(func(r *resty.Response, err error) bool { return err != nil }) // want `retrybudget: resty client retries with no retry budget`
}

func configureParam(rc *resty.Client) {
	rc.SetRetryCount(3) // want `retrybudget: resty client retries with no retry budget`
}

// Look-alikes: a condition that consults a budget; retries off; a count
// from configuration; a client made here (judged at its sends).
func configureBudget(a *api) {
	a.rc.SetRetryCount(5).AddRetryCondition(func(r *resty.Response, err error) bool { return err != nil && remote.Limiter.Allow() })
}

func configureOff(a *api) {
	a.rc.SetRetryCount(0)
}

func configureN(a *api, n int) {
	a.rc.SetRetryCount(n)
}

func configureOwn() *resty.Client {
	rc := resty.New()
	rc.SetRetryCount(3)
	return rc
}
