// Package base imports every package the fuzz target's generated files
// may use, so that one load gives their types.
package base

import (
	_ "context"
	_ "database/sql"
	_ "errors"
	_ "fmt"
	_ "math/rand"
	_ "net"
	_ "net/http"
	_ "strings"
	_ "time"

	_ "github.com/avast/retry-go/v4"
	_ "github.com/avast/retry-go/v5"
	_ "github.com/cenkalti/backoff/v4"
	_ "github.com/cenkalti/backoff/v5"
	_ "github.com/sethvargo/go-retry"
	_ "k8s.io/apimachinery/pkg/util/wait"
)
