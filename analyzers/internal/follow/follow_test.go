package follow

import "testing"

func TestPathRefusesCycle(t *testing.T) {
	var p Path
	a, b := Key{"ctx", "a"}, Key{"ctx", "b"}
	if !p.Enter(a) || !p.Enter(b) {
		t.Fatal("fresh keys refused")
	}
	if p.Enter(a) {
		t.Error("a key on the path was entered again")
	}
	if !p.Enter(Key{"delay", "a"}) {
		t.Error("another resolver's key for the same node was refused")
	}
	p.Leave(Key{"delay", "a"})
	p.Leave(b)
	p.Leave(a)
	if p.Depth() != 0 || !p.Enter(a) {
		t.Errorf("after leaving, depth %d and a refused", p.Depth())
	}
	if p.Refused != 1 {
		t.Errorf("Refused = %d, want 1", p.Refused)
	}
}

func TestPathLimit(t *testing.T) {
	var p Path
	for i := range Limit {
		if !p.Enter(Key{"x", i}) {
			t.Fatalf("refused at depth %d, below Limit %d", i, Limit)
		}
	}
	if p.Enter(Key{"x", Limit}) {
		t.Errorf("entered past Limit")
	}
}

func TestLeaveWithoutEnterPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Leave of a key not on the path did not panic")
		}
	}()
	var p Path
	p.Leave(Key{"x", 1})
}
