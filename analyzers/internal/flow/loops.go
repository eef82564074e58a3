package flow

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// loop is a natural loop: a header that dominates every block of the loop,
// and the blocks from which a back edge to the header is reachable without
// passing through it. A `for` loop, a labeled block jumped back to with
// `goto`, and a `select` loop are all one.
type loop struct {
	header *ssa.BasicBlock
	blocks map[*ssa.BasicBlock]bool
}

// naturalLoops returns fn's natural loops, innermost (smallest) first;
// back edges to one header make one loop.
func naturalLoops(fn *ssa.Function) []*loop {
	byHeader := map[*ssa.BasicBlock]*loop{}
	var loops []*loop
	for _, b := range fn.Blocks {
		for _, h := range b.Succs {
			if !h.Dominates(b) {
				continue
			}
			l := byHeader[h]
			if l == nil {
				l = &loop{header: h, blocks: map[*ssa.BasicBlock]bool{h: true}}
				byHeader[h] = l
				loops = append(loops, l)
			}
			// Walk back from the latch to the header.
			stack := []*ssa.BasicBlock{b}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if l.blocks[x] {
					continue
				}
				l.blocks[x] = true
				stack = append(stack, x.Preds...)
			}
		}
	}
	slices.SortStableFunc(loops, func(x, y *loop) int { return len(x.blocks) - len(y.blocks) })
	return loops
}

// predIndex returns the index of pred among b's predecessors, or -1.
func predIndex(b, pred *ssa.BasicBlock) int {
	return slices.Index(b.Preds, pred)
}

// inside reports whether v is defined in a block of l (a value defined
// outside it, a parameter, a constant or a global does not change while
// the loop runs).
func (l *loop) inside(v ssa.Value) bool {
	in, ok := v.(ssa.Instruction)
	return ok && in.Block() != nil && l.blocks[in.Block()]
}

// span returns the least and the greatest position of the loop's
// instructions.
func (l *loop) span() (lo, hi token.Pos) {
	for b := range l.blocks {
		for _, in := range b.Instrs {
			p := in.Pos()
			if !p.IsValid() {
				continue
			}
			if lo == token.NoPos || p < lo {
				lo = p
			}
			if p > hi {
				hi = p
			}
		}
	}
	return lo, hi
}
