package a

import (
	"errors"
	"math/rand"
	"time"
)

// backoffSeconds looks the delay up in a table of rising constants by
// the attempt: it grows, and nothing in it is random.
func backoffSeconds(attempt int) int {
	table := [...]int{15, 15, 30, 60, 120, 300}
	if attempt < 0 || attempt >= len(table) {
		return table[len(table)-1]
	}
	return table[attempt]
}

func connectForever(op func() error) {
	attempts := 0
	for {
		if err := op(); err == nil {
			return
		}
		time.Sleep(time.Duration(backoffSeconds(attempts)) * time.Second) // want `backoff grows without jitter`
		attempts++
	}
}

var steps = []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}

func inlineTable(op func() error) error {
	for i := 0; i < len(steps); i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(steps[i]) // want `backoff grows without jitter`
	}
	return errors.New("gave up")
}

// Look-alikes.

// flatSeconds: the same constant throughout is a fixed delay.
func flatSeconds(attempt int) int {
	table := [...]int{5, 5, 5}
	if attempt >= len(table) {
		return table[len(table)-1]
	}
	return table[attempt]
}

func connectFlat(op func() error) {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return
		}
		time.Sleep(time.Duration(flatSeconds(i)) * time.Second)
	}
}

// A random pick from the table is jitter.
func pickRandom(op func() error) error {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(steps[rand.Intn(len(steps))])
	}
	return errors.New("gave up")
}

// The table indexed by something the loop does not change picks one
// delay for every attempt.
func byKind(op func() error, kind int) error {
	for i := 0; i < 5; i++ {
		if err := op(); err == nil {
			return nil
		}
		time.Sleep(steps[kind])
	}
	return errors.New("gave up")
}
