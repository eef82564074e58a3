// Command sleeplint is the retrylint driver with only the sleeptest
// analyzer: the driver's tests run it as a vet and fix tool.
package main

import (
	"github.com/retrylint/retrylint/internal/driver"
	"github.com/retrylint/retrylint/internal/driver/sleeptest"
)

func main() { driver.Main(sleeptest.Analyzer) }
