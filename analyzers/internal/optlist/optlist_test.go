package optlist

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"
)

func TestFuncsSet(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string // normalised; nil with bad set
		bad  string   // a substring of the error
	}{
		{in: "", want: nil},
		{in: "example.com/rl.Allow", want: []string{"example.com/rl.Allow"}},
		{in: "example.com/rl.Limiter.Take, os.Exit", want: []string{"example.com/rl.Limiter.Take", "os.Exit"}},
		{in: "example.com/rl.(*Limiter).Take", want: []string{"example.com/rl.Limiter.Take"}},
		{in: "example.com/rl.(Limiter).Take", want: []string{"example.com/rl.Limiter.Take"}},
		{in: "gopkg.in/yaml.v3.Marshal", want: []string{"gopkg.in/yaml.v3.Marshal"}},
		{in: "!!!", bad: `entry "!!!"`},
		{in: "garbage", bad: `entry "garbage"`},
		{in: ",,", bad: "empty entry"},
		{in: "example.com/rl.Allow,", bad: "empty entry"},
		{in: "%%%", bad: `entry "%%%"`},
		{in: "example.com/rl.", bad: `entry "example.com/rl."`},
		{in: "example.com/rl.(*Limiter.Take", bad: `entry "example.com/rl.(*Limiter.Take"`},
		{in: "example.com/rl.(**Limiter).Take", bad: `entry`},
		{in: "example.com/r l.Allow", bad: `entry "example.com/r l.Allow"`},
		{in: "example.com/rl.Al-low", bad: `"Al-low" is not a Go identifier`},
		{in: "example.com/rl/.Allow", bad: `entry "example.com/rl/.Allow"`},
	} {
		var dst []string
		f := NewFuncs(&dst)
		err := f.Set(c.in)
		if c.bad != "" {
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("Set(%q) = %v, want an error containing %q", c.in, err, c.bad)
			}
			continue
		}
		if err != nil {
			t.Errorf("Set(%q): %v", c.in, err)
			continue
		}
		if !slices.Equal(dst, c.want) {
			t.Errorf("Set(%q) stored %q, want %q", c.in, dst, c.want)
		}
		if got, want := f.String(), strings.ReplaceAll(c.in, ", ", ","); got != want {
			t.Errorf("Set(%q): String() = %q, want %q", c.in, got, want)
		}
	}

	// A failed Set keeps the previous value.
	var dst []string
	f := NewFuncs(&dst)
	if err := f.Set("example.com/rl.Allow"); err != nil {
		t.Fatal(err)
	}
	if f.Set("garbage") == nil || !slices.Equal(dst, []string{"example.com/rl.Allow"}) {
		t.Errorf("after a failed Set: %q", dst)
	}
}

func TestPkgsAndHeadersSet(t *testing.T) {
	var pkgs []string
	p := NewPkgs(&pkgs)
	for _, ok := range []string{"", "example.com/rpc", "example.com/rpc/, os", "gopkg.in/yaml.v3"} {
		if err := p.Set(ok); err != nil {
			t.Errorf("remote-pkgs %q: %v", ok, err)
		}
	}
	for _, bad := range []string{"!!!", ",,", "%%%", "example.com/rpc/...", "example.com//rpc", "a b"} {
		if err := p.Set(bad); err == nil {
			t.Errorf("remote-pkgs %q: no error", bad)
		}
	}
	var hs []string
	h := NewHeaders(&hs)
	for _, ok := range []string{"", "PayPal-Request-Id", "X-Request-Token,x_key"} {
		if err := h.Set(ok); err != nil {
			t.Errorf("headers %q: %v", ok, err)
		}
	}
	for _, bad := range []string{"X Request", "X-Key:", "Ключ", ",,", "(x)"} {
		if err := h.Set(bad); err == nil || !strings.Contains(err.Error(), "entry") && !strings.Contains(err.Error(), "empty") {
			t.Errorf("headers %q: %v, want an error naming the entry", bad, err)
		}
	}
}

func TestUnseen(t *testing.T) {
	const src = `package rl

type Limiter struct{ Inner }
type Inner struct{}
type Iface interface{ Wait() error }

func (l *Limiter) Take() bool { return true }
func (Inner) Promoted() bool  { return true }
func Allow() bool              { return true }
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "rl.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("example.com/rl", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	loaded := map[string]*types.Package{pkg.Path(): pkg, "example.com/rl/sub": types.NewPackage("example.com/rl/sub", "sub")}

	var dst []string
	f := NewFuncs(&dst)
	if err := f.Set("example.com/rl.Allow,example.com/rl.(*Limiter).Take,example.com/rl.Iface.Wait," +
		"example.com/rl.Nope,example.com/rl.Limiter.Promoted,example.com/other.F"); err != nil {
		t.Fatal(err)
	}
	got := f.Unseen(loaded)
	want := []string{
		"example.com/rl.Nope: package example.com/rl has no such function or method",
		"example.com/rl.Limiter.Promoted: package example.com/rl has no such function or method",
		"example.com/other.F: package example.com/other is neither loaded nor imported by a loaded package",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Funcs.Unseen:\n got %q\nwant %q", got, want)
	}

	var pkgs []string
	p := NewPkgs(&pkgs)
	if err := p.Set("example.com/rl,example.com/rl/,example.com,example.com/r,example.org"); err != nil {
		t.Fatal(err)
	}
	got = p.Unseen(loaded)
	want = []string{
		"example.com/r: no package example.com/r or below it is loaded or imported by a loaded package",
		"example.org: no package example.org or below it is loaded or imported by a loaded package",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Pkgs.Unseen:\n got %q\nwant %q", got, want)
	}
}
