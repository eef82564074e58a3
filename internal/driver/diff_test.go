package driver

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	for _, test := range []struct {
		name, old, new, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"change", "a\nb\nc\n", "a\nB\nc\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"insert at start", "a\nb\n", "x\na\nb\n", "@@ -1 +1,2 @@\n+x\n a\n"},
		{"into empty", "", "x\n", "@@ -0,0 +1 @@\n+x\n"},
		{"delete at end", "a\nb\nc\nd\ne\n", "a\nb\nc\nd\n", "@@ -4,2 +4 @@\n d\n-e\n"},
		{"no newline", "a", "b", "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"},
		{
			"two hunks",
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
			"one\n2\n3\n4\n5\n6\n7\n8\n9\nten\n",
			"@@ -1,2 +1,2 @@\n-1\n+one\n 2\n@@ -9,2 +9,2 @@\n 9\n-10\n+ten\n",
		},
		{
			"one hunk when close",
			"1\n2\n3\n4\n",
			"one\n2\n3\nfour\n",
			"@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n-4\n+four\n",
		},
	} {
		t.Run(test.name, func(t *testing.T) {
			got := string(unifiedDiff("a/f", "b/f", []byte(test.old), []byte(test.new), 1))
			if test.want != "" {
				test.want = "--- a/f\n+++ b/f\n" + test.want
			}
			if got != test.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, test.want)
			}
		})
	}
}

// TestMyersMinimal checks that the edit script is minimal and turns
// the old lines into the new ones.
func TestMyersMinimal(t *testing.T) {
	a := strings.Split("a b c a b b a", " ")
	b := strings.Split("c b a b a c", " ")
	ops := myers(a, b)
	var got []string
	ai, n := 0, 0
	for _, op := range ops {
		got = append(got, a[ai:op.a0]...)
		got = append(got, b[op.b0:op.b1]...)
		ai = op.a1
		n += op.a1 - op.a0 + op.b1 - op.b0
	}
	got = append(got, a[ai:]...)
	if strings.Join(got, " ") != strings.Join(b, " ") {
		t.Errorf("applying the script gives %q", got)
	}
	if n != 5 { // Myers' paper: D = 5 for this pair
		t.Errorf("edit distance %d, want 5", n)
	}
}
