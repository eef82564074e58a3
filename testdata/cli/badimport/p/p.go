// Package p is a fixture that imports a package that does not exist.
package p

import "example.com/badimport/nosuch"

var _ = nosuch.X
