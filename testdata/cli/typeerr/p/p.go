// Package p is a fixture with a type error.
package p

func F() int { return "one" }
