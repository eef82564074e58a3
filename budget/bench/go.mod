module github.com/retrylint/retrylint/budget/bench

go 1.26.0

require (
	github.com/cenkalti/backoff/v5 v5.0.3
	github.com/retrylint/retrylint/budget v0.0.0
	github.com/sony/gobreaker/v2 v2.4.0
	golang.org/x/time v0.16.0
)

replace github.com/retrylint/retrylint/budget => ../
