package main

import (
	"github.com/retrylint/retrylint/analyzers"
	"github.com/retrylint/retrylint/internal/driver"
)

func main() { driver.Main(analyzers.All()...) }
