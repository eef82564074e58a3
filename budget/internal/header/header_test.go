package header

import "testing"

func TestName(t *testing.T) {
	for _, c := range []struct{ override, want string }{
		{"", "X-Retry-Attempt"},
		{"-", ""},
		{"X-Attempt", "X-Attempt"},
	} {
		if got := Name(c.override, "X-Retry-Attempt"); got != c.want {
			t.Errorf("Name(%q) = %q, want %q", c.override, got, c.want)
		}
	}
}
