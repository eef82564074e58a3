module libs

go 1.26.0

require (
	github.com/cenkalti/backoff/v4 v4.3.0
	golang.org/x/time v0.16.0
)
