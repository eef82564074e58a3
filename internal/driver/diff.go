package driver

import (
	"bytes"
	"fmt"
	"strings"
)

// unifiedDiff returns a unified diff of two texts by lines, with n
// lines of context, or nil if they are equal. It uses Myers' O(ND)
// algorithm: fixes change few lines, so D is small.
func unifiedDiff(oldName, newName string, oldText, newText []byte, n int) []byte {
	a, b := splitLines(string(oldText)), splitLines(string(newText))
	ops := myers(a, b)
	if len(ops) == 0 {
		return nil
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)

	// Group the edits into hunks separated by more than 2n equal lines.
	for i := 0; i < len(ops); {
		j := i
		for j+1 < len(ops) && ops[j+1].a0-ops[j].a1 <= 2*n {
			j++
		}
		a0, a1 := max(ops[i].a0-n, 0), min(ops[j].a1+n, len(a))
		b0 := ops[i].b0 - (ops[i].a0 - a0)
		b1 := ops[j].b1 + (a1 - ops[j].a1)
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(a0, a1), hunkRange(b0, b1))
		ai := a0
		for k := i; k <= j; k++ {
			op := ops[k]
			for ; ai < op.a0; ai++ {
				writeLine(&out, ' ', a[ai])
			}
			for _, l := range a[op.a0:op.a1] {
				writeLine(&out, '-', l)
			}
			for _, l := range b[op.b0:op.b1] {
				writeLine(&out, '+', l)
			}
			ai = op.a1
		}
		for ; ai < a1; ai++ {
			writeLine(&out, ' ', a[ai])
		}
		i = j + 1
	}
	return out.Bytes()
}

func hunkRange(start, end int) string {
	switch n := end - start; n {
	case 0:
		return fmt.Sprintf("%d,0", start) // an empty range names the line before it
	case 1:
		return fmt.Sprintf("%d", start+1)
	default:
		return fmt.Sprintf("%d,%d", start+1, n)
	}
}

func writeLine(out *bytes.Buffer, prefix byte, line string) {
	out.WriteByte(prefix)
	out.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		out.WriteString("\n\\ No newline at end of file\n")
	}
}

// splitLines splits s after each newline, keeping the newlines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// A diffOp replaces a[a0:a1] with b[b0:b1].
type diffOp struct{ a0, a1, b0, b1 int }

// myers returns the changes that turn a into b, in order.
func myers(a, b []string) []diffOp {
	// Trim the common prefix and suffix: fixes are local.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := myersCore(a[pre:len(a)-suf], b[pre:len(b)-suf])
	for i := range ops {
		ops[i].a0 += pre
		ops[i].a1 += pre
		ops[i].b0 += pre
		ops[i].b1 += pre
	}
	return ops
}

// maxD bounds the work (and the memory of the trace, O(D·(N+M))) on
// texts that differ everywhere; beyond it the diff is one replacement.
const maxD = 2000

func myersCore(a, b []string) []diffOp {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil
	}
	max := n + m
	off := max + 1
	v := make([]int, 2*max+3)
	var trace [][]int
	for d := 0; d <= max && d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: insert b[y]
			} else {
				x = v[off+k-1] + 1 // right: delete a[x]
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, off, n, m, d)
			}
		}
	}
	return []diffOp{{0, n, 0, m}}
}

// backtrack walks the trace back from (x, y) = (n, m), collecting the
// single-line moves, and merges adjacent ones into replacements.
func backtrack(trace [][]int, off, x, y, d int) []diffOp {
	var steps []diffOp // in reverse order
	for ; d > 0; d-- {
		v := trace[d] // the state before round d
		k := x - y
		prevK := k - 1
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			prevK = k + 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		if prevK == k+1 {
			steps = append(steps, diffOp{prevX, prevX, prevY, prevY + 1})
		} else {
			steps = append(steps, diffOp{prevX, prevX + 1, prevY, prevY})
		}
		x, y = prevX, prevY // skipping the diagonal of equal lines
	}
	var ops []diffOp
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		if l := len(ops) - 1; l >= 0 && ops[l].a1 == s.a0 && ops[l].b1 == s.b0 {
			ops[l].a1, ops[l].b1 = s.a1, s.b1
			continue
		}
		ops = append(ops, s)
	}
	return ops
}
