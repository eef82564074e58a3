module libhelpers

go 1.26.0

require (
	github.com/cenkalti/backoff/v5 v5.0.3
	golang.org/x/time v0.12.0
)
