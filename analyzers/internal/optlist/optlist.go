// Package optlist holds the list options of the analyzers
// (-retrybudget.budget-funcs, -retrybudget.remote-pkgs,
// -retryidempotency.headers) as flag values that check every entry when
// the flag is set, so that a typo fails the run that made it instead of
// silently matching nothing, and store the entries, normalised, in the
// retryloop option the analysis reads.
//
// The command line, go vet and the golangci-lint plugin all set these
// through the flag, so they reject the same entries with the same words.
//
// Funcs and Pkgs also implement Unseen, which the standalone driver
// calls once the packages are loaded to warn about entries that name
// nothing in them.
package optlist

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/mod/module"
)

// split returns the entries of a comma-separated list. The empty string
// is the empty list (the flags' default); an empty entry in a non-empty
// list is an error, as it is most likely a typo.
func split(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	for _, e := range strings.Split(s, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			return nil, fmt.Errorf("empty entry in %q", s)
		}
		out = append(out, e)
	}
	return out, nil
}

// A funcName is one reading of a -budget-funcs entry: a package-level
// function (typ empty) or a method of a named type.
type funcName struct {
	pkg, typ, name string
}

func (f funcName) String() string {
	if f.typ == "" {
		return f.pkg + "." + f.name
	}
	return f.pkg + "." + f.typ + "." + f.name
}

// Funcs is the value of -retrybudget.budget-funcs: functions named
// pkg/path.Func, pkg/path.Type.Method or pkg/path.(*Type).Method.
type Funcs struct {
	dst     *[]string    // where the normalised entries go
	entries [][]funcName // per entry, its possible readings
	raw     []string     // the entries as given
}

// NewFuncs returns a Funcs that stores its entries in dst, spelled the way
// the analysis names a function: pkg/path.Func or pkg/path.Type.Method
// (a pointer receiver is written without its star and parentheses).
func NewFuncs(dst *[]string) *Funcs { return &Funcs{dst: dst} }

func (f *Funcs) String() string {
	if f == nil {
		return ""
	}
	return strings.Join(f.raw, ",")
}

// Get returns the entries as the analysis reads them, normalised
// (flag.Getter): what String shows is the entries as given.
func (f *Funcs) Get() any { return *f.dst }

// Set parses a comma-separated list of functions; on an error nothing
// changes.
func (f *Funcs) Set(s string) error {
	list, err := split(s)
	if err != nil {
		return err
	}
	var entries [][]funcName
	var norm []string
	for _, e := range list {
		readings, err := parseFunc(e)
		if err != nil {
			return fmt.Errorf("entry %q: %v", e, err)
		}
		entries = append(entries, readings)
		norm = append(norm, readings[0].String())
	}
	f.entries, f.raw = entries, list
	*f.dst = norm
	return nil
}

var recvMethod = regexp.MustCompile(`^(.+)\.\((\*?)([^().*]+)\)\.([^().]+)$`)

const wantFunc = "want pkg/path.Func, pkg/path.Type.Method or pkg/path.(*Type).Method"

// parseFunc returns the readings of a function entry. The last element
// of an import path may hold dots (gopkg.in/yaml.v3), so
// "gopkg.in/yaml.v3.Marshal" reads both as the function Marshal of
// gopkg.in/yaml.v3 and as the method Marshal of type v3 in gopkg.in/yaml;
// all readings name the function by the same string.
func parseFunc(e string) ([]funcName, error) {
	if m := recvMethod.FindStringSubmatch(e); m != nil {
		pkg, typ, name := m[1], m[3], m[4]
		if !token.IsIdentifier(typ) || !token.IsIdentifier(name) {
			return nil, fmt.Errorf("%s: %q and %q must be Go identifiers", wantFunc, typ, name)
		}
		if err := checkPkg(pkg); err != nil {
			return nil, err
		}
		return []funcName{{pkg, typ, name}}, nil
	}
	if strings.ContainsAny(e, "()*") {
		return nil, fmt.Errorf("%s", wantFunc)
	}
	slash := strings.LastIndexByte(e, '/')
	dot := strings.LastIndexByte(e, '.')
	if dot <= slash+1 || dot == len(e)-1 {
		return nil, fmt.Errorf("%s", wantFunc)
	}
	prefix, name := e[:dot], e[dot+1:]
	if !token.IsIdentifier(name) {
		return nil, fmt.Errorf("%s: %q is not a Go identifier", wantFunc, name)
	}
	var readings []funcName
	pkgErr := checkPkg(prefix)
	if pkgErr == nil {
		readings = append(readings, funcName{pkg: prefix, name: name})
	}
	if d := strings.LastIndexByte(prefix, '.'); d > slash+1 {
		if pkg, typ := prefix[:d], prefix[d+1:]; token.IsIdentifier(typ) && checkPkg(pkg) == nil {
			readings = append(readings, funcName{pkg: pkg, typ: typ, name: name})
		}
	}
	if len(readings) == 0 {
		return nil, pkgErr
	}
	return readings, nil
}

// checkPkg reports why path is not an import path, or nil.
func checkPkg(path string) error {
	if err := module.CheckImportPath(path); err != nil {
		return fmt.Errorf("%q is not an import path: %v", path, unwrapPath(err, path))
	}
	return nil
}

// unwrapPath drops the path that module's errors repeat.
func unwrapPath(err error, path string) string {
	return strings.TrimPrefix(err.Error(), "malformed import path \""+path+"\": ")
}

// Unseen returns a warning for each entry that names no function in pkgs,
// the loaded packages and their dependencies.
func (f *Funcs) Unseen(pkgs map[string]*types.Package) []string {
	var out []string
	for i, readings := range f.entries {
		seen, found := false, ""
		for _, r := range readings {
			if p := pkgs[r.pkg]; p != nil {
				found = cmp.Or(found, r.pkg)
				seen = seen || declares(p, r)
			}
		}
		switch {
		case seen:
		case found == "":
			out = append(out, fmt.Sprintf("%s: package %s is neither loaded nor imported by a loaded package", f.raw[i], readings[0].pkg))
		default:
			out = append(out, fmt.Sprintf("%s: package %s has no such function or method", f.raw[i], found))
		}
	}
	return out
}

// declares reports whether p declares the function r names: a
// package-level function, or a method declared on the named type itself
// (a promoted method is named by the type that declares it).
func declares(p *types.Package, r funcName) bool {
	if r.typ == "" {
		_, ok := p.Scope().Lookup(r.name).(*types.Func)
		return ok
	}
	tn, ok := p.Scope().Lookup(r.typ).(*types.TypeName)
	if !ok {
		return false
	}
	n, ok := types.Unalias(tn.Type()).(*types.Named)
	if !ok {
		return false
	}
	for m := range n.Methods() {
		if m.Name() == r.name {
			return true
		}
	}
	if it, ok := n.Underlying().(*types.Interface); ok {
		for m := range it.Methods() {
			if m.Name() == r.name {
				return true
			}
		}
	}
	return false
}

// Pkgs is the value of -retrybudget.remote-pkgs: import path prefixes
// (example.com/rpc covers example.com/rpc and example.com/rpc/...).
type Pkgs struct {
	dst *[]string
}

// NewPkgs returns a Pkgs that stores its entries in dst.
func NewPkgs(dst *[]string) *Pkgs { return &Pkgs{dst: dst} }

func (p *Pkgs) String() string {
	if p == nil || p.dst == nil {
		return ""
	}
	return strings.Join(*p.dst, ",")
}

// Set parses a comma-separated list of import paths; on an error nothing
// changes.
func (p *Pkgs) Set(s string) error {
	list, err := split(s)
	if err != nil {
		return err
	}
	for _, e := range list {
		if strings.Contains(e, "...") {
			return fmt.Errorf("entry %q: want an import path; a path already covers the packages below it (write example.com/rpc, not example.com/rpc/...)", e)
		}
		if err := checkPkg(strings.TrimSuffix(e, "/")); err != nil {
			return fmt.Errorf("entry %q: %v", e, err)
		}
	}
	*p.dst = list
	return nil
}

// Unseen returns a warning for each prefix that covers none of pkgs.
func (p *Pkgs) Unseen(pkgs map[string]*types.Package) []string {
	var out []string
	for _, e := range *p.dst {
		prefix := strings.TrimSuffix(e, "/")
		seen := false
		for path := range pkgs {
			if path == prefix || strings.HasPrefix(path, prefix+"/") {
				seen = true
				break
			}
		}
		if !seen {
			out = append(out, fmt.Sprintf("%s: no package %s or below it is loaded or imported by a loaded package", e, prefix))
		}
	}
	return out
}

// Headers is the value of -retryidempotency.headers: HTTP header names.
type Headers struct {
	dst *[]string
}

// NewHeaders returns a Headers that stores its entries in dst.
func NewHeaders(dst *[]string) *Headers { return &Headers{dst: dst} }

func (h *Headers) String() string {
	if h == nil || h.dst == nil {
		return ""
	}
	return strings.Join(*h.dst, ",")
}

// Set parses a comma-separated list of header names, each a token of
// RFC 9110 section 5.6.2; on an error nothing changes.
func (h *Headers) Set(s string) error {
	list, err := split(s)
	if err != nil {
		return err
	}
	for _, e := range list {
		for _, r := range e {
			if !isTokenChar(r) {
				return fmt.Errorf("entry %q: a header name holds only letters, digits and !#$%%&'*+-.^_`|~ (RFC 9110 token), not %q", e, r)
			}
		}
	}
	*h.dst = list
	return nil
}

func isTokenChar(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' ||
		strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}
