// Package plugin registers the retrylint analyzers as golangci-lint v2
// module plugins.
//
// Seven plugins are registered; configure either the first or the others:
//
//   - "retrylint" runs the whole suite as one golangci-lint linter. Its
//     issues read "retrysleep: … (retrylint)", and //nolint:retrylint
//     silences all six analyzers on a line.
//   - "retrybudget", "retryjitter", "retrysleep", "retryidempotency",
//     "retrydeadline" and "retrynested" run one analyzer each, as a linter of the same name.
//     Their issues read "… (retrysleep)", and everything golangci-lint keys
//     on linter names works per analyzer: //nolint:retrysleep, --enable-only,
//     linters.exclusions.rules.
//
// No setting belongs to the plugins themselves. Every analyzer option is
// applied through the analyzer's own flag (a.Flags.Set), so a setting in
// .golangci.yml and the matching command-line flag of retrylint or go vet
// (-retrybudget.budget-funcs=…) mean exactly the same thing. Lists are
// joined with commas, the form the flags take.
//
// Settings of "retrylint", under linters.settings.custom.retrylint.settings:
//
//	enable:  [retrybudget, retryjitter]  # default: all six
//	disable: [retrydeadline]             # wins over enable
//	retrybudget:
//	  tests: false                       # every analyzer has tests (default false)
//	  budget-funcs: [example.com/rl.Allow]
//	  remote-pkgs: [example.com/client]
//	retryidempotency:
//	  headers: [X-Request-Token]
//
// The per-analyzer plugins take the contents of one such block, for example
// linters.settings.custom.retryidempotency.settings: {headers: [X-Request-Token]}.
//
// Unknown keys, at the top level or inside an analyzer's block, unknown
// analyzer names and one analyzer configured through two plugins are
// errors: golangci-lint prints them and exits 3.
package plugin

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/analyzers"
)

// Name is the name of the plugin that runs the whole suite: the key of its
// block under linters.settings.custom in .golangci.yml. The per-analyzer
// plugins are named after their analyzers.
const Name = "retrylint"

func init() {
	register.Plugin(Name, New)
	for _, a := range suite() {
		register.Plugin(a.Name, func(conf any) (register.LinterPlugin, error) {
			return newSingle(a, conf)
		})
	}
}

// Settings is the configuration of the "retrylint" plugin.
type Settings struct {
	// Enable lists the analyzers to run. Empty means all of them.
	Enable []string `json:"enable"`
	// Disable lists analyzers not to run; it wins over Enable.
	Disable []string `json:"disable"`

	// The per-analyzer blocks are decoded one by one, so that an unknown
	// key inside a block is reported with the block's name. Each holds
	// what the analyzer's settings type (see settingsFor) accepts.
	RetryBudget      any `json:"retrybudget"`
	RetryJitter      any `json:"retryjitter"`
	RetrySleep       any `json:"retrysleep"`
	RetryIdempotency any `json:"retryidempotency"`
	RetryDeadline    any `json:"retrydeadline"`
	RetryNested      any `json:"retrynested"`
}

// CommonSettings are the options every analyzer has: the settings of
// retryjitter, retrysleep and retrydeadline.
type CommonSettings struct {
	// Tests sets -<analyzer>.tests: whether _test.go files are analyzed
	// (default true).
	Tests *bool `json:"tests" flag:"tests"`
}

// BudgetSettings are the settings of retrybudget.
type BudgetSettings struct {
	Tests *bool `json:"tests" flag:"tests"`
	// BudgetFuncs sets -retrybudget.budget-funcs: functions that count as
	// a retry budget check (pkg/path.Func or pkg/path.Type.Method).
	BudgetFuncs []string `json:"budget-funcs" flag:"budget-funcs"`
	// RemotePkgs sets -retrybudget.remote-pkgs: import path prefixes whose
	// calls count as remote calls.
	RemotePkgs []string `json:"remote-pkgs" flag:"remote-pkgs"`
}

// IdempotencySettings are the settings of retryidempotency.
type IdempotencySettings struct {
	Tests *bool `json:"tests" flag:"tests"`
	// Headers sets -retryidempotency.headers: extra header names that
	// carry an idempotency key.
	Headers []string `json:"headers" flag:"headers"`
}

// settingsFor decodes conf strictly into the settings type of the analyzer
// called name and returns a pointer to the result.
func settingsFor(name string, conf any) (any, error) {
	switch name {
	case "retrybudget":
		return decode[BudgetSettings](conf)
	case "retryidempotency":
		return decode[IdempotencySettings](conf)
	default:
		return decode[CommonSettings](conf)
	}
}

func decode[T any](conf any) (*T, error) {
	s, err := register.DecodeSettings[T](conf)
	if err != nil {
		return nil, explain(err, new(T))
	}
	return &s, nil
}

// suite returns the analyzers the six plugins configure and golangci-lint
// runs, made once by analyzers.New. One suite for all the plugins, as one
// retrylint run has: the model runs once per package however the analyzers
// are split among plugins, an option such as remote-pkgs reaches every
// analyzer as it does on the command line, and a second model could not
// join the same run anyway (its fact types are the first's, which
// analysis.Validate rejects). A suite of its own, so that the plugins'
// settings never reach analyzers.All, the suite go vet and the retrylint
// command configure, should both run in one process.
var suite = sync.OnceValue(analyzers.New)

type plugin struct {
	analyzers []*analysis.Analyzer
}

// BuildAnalyzers returns the enabled analyzers, in the order of
// analyzers.All, each wrapped by [foldRelated]. golangci-lint runs the
// helper analyzers they require.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	out := make([]*analysis.Analyzer, len(p.analyzers))
	for i, a := range p.analyzers {
		out[i] = foldRelated(a)
	}
	return out, nil
}

var (
	foldedMu sync.Mutex
	folded   = map[*analysis.Analyzer]*analysis.Analyzer{}
)

// foldRelated returns the analyzer golangci-lint runs in place of a: the
// same analysis, whose diagnostics carry their related positions in the
// message, "… (line 25: retry loop)", instead of in Related.
//
// golangci-lint turns every related position into an issue of its own
// ("retrysleep(related information): retry loop"), with no fix and no
// link to its finding. A //nolint comment on the finding's line, an
// exclusion rule or --fix removes the finding and leaves those issues
// behind, failing the run; and every count, text, JSON or SARIF, is
// doubled. Folded into the message, a related position goes wherever its
// finding goes.
//
// One wrapper per analyzer, so that repeated BuildAnalyzers calls return
// the same values. The wrapper has no flags of its own: settings go to a's
// flags (see configure), and its Run passes a itself as pass.Analyzer.
func foldRelated(a *analysis.Analyzer) *analysis.Analyzer {
	foldedMu.Lock()
	defer foldedMu.Unlock()
	if w, ok := folded[a]; ok {
		return w
	}
	w := &analysis.Analyzer{
		Name:       a.Name,
		Doc:        a.Doc,
		URL:        a.URL,
		Requires:   a.Requires,
		ResultType: a.ResultType,
		FactTypes:  a.FactTypes,
		Run: func(pass *analysis.Pass) (any, error) {
			p := *pass
			p.Analyzer = a
			p.Report = func(d analysis.Diagnostic) {
				d.Message = foldMessage(pass.Fset, d)
				d.Related = nil
				pass.Report(d)
			}
			return a.Run(&p)
		},
	}
	folded[a] = w
	return w
}

// foldMessage returns d's message followed by its related positions: the
// line alone in the finding's file, the file's base name and line in
// another file.
func foldMessage(fset *token.FileSet, d analysis.Diagnostic) string {
	if len(d.Related) == 0 {
		return d.Message
	}
	file := fset.Position(d.Pos).Filename
	var parts []string
	for _, r := range d.Related {
		posn := fset.Position(r.Pos)
		where := fmt.Sprintf("line %d", posn.Line)
		if posn.Filename != file {
			where = fmt.Sprintf("%s:%d", filepath.Base(posn.Filename), posn.Line)
		}
		parts = append(parts, where+": "+r.Message)
	}
	return d.Message + " (" + strings.Join(parts, "; ") + ")"
}

// GetLoadMode reports that the analyzers need type information.
func (p *plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}

// New is the constructor of the "retrylint" plugin: it decodes conf, the
// settings golangci-lint read from YAML, applies them to the flags of the
// enabled analyzers and returns the plugin.
//
// The plugins share one suite (see suite), so the flags of each enabled
// analyzer are first reset to their defaults: the result depends only on
// conf, never on an earlier call.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, fmt.Errorf("%s settings: %w", Name, explain(err, &s))
	}
	all := suite()
	if err := checkNames("enable", s.Enable); err != nil {
		return nil, err
	}
	if err := checkNames("disable", s.Disable); err != nil {
		return nil, err
	}
	blocks := map[string]any{
		"retrybudget":      s.RetryBudget,
		"retryjitter":      s.RetryJitter,
		"retrysleep":       s.RetrySleep,
		"retryidempotency": s.RetryIdempotency,
		"retrydeadline":    s.RetryDeadline,
		"retrynested":      s.RetryNested,
	}
	var enabled []*analysis.Analyzer
	decoded := map[string]any{}
	for _, a := range all {
		// Check every block, even of a disabled analyzer: a typo should
		// not wait until the analyzer is enabled to be reported.
		if blocks[a.Name] != nil {
			block, err := settingsFor(a.Name, blocks[a.Name])
			if err != nil {
				return nil, fmt.Errorf("%s settings: %s: %w", Name, a.Name, err)
			}
			decoded[a.Name] = block
		}
		if len(s.Enable) > 0 && !slices.Contains(s.Enable, a.Name) || slices.Contains(s.Disable, a.Name) {
			continue
		}
		enabled = append(enabled, a)
	}
	if err := claim(Name, enabled); err != nil {
		return nil, err
	}
	for _, a := range enabled {
		if err := configure(a, decoded[a.Name]); err != nil {
			return nil, fmt.Errorf("%s settings: %s: %w", Name, a.Name, err)
		}
	}
	return &plugin{analyzers: enabled}, nil
}

// newSingle is the constructor of the plugin that runs analyzer a alone;
// conf holds a's settings block.
func newSingle(a *analysis.Analyzer, conf any) (register.LinterPlugin, error) {
	var block any
	if conf != nil {
		var err error
		if block, err = settingsFor(a.Name, conf); err != nil {
			return nil, fmt.Errorf("%s settings: %w", a.Name, err)
		}
	}
	enabled := []*analysis.Analyzer{a}
	if err := claim(a.Name, enabled); err != nil {
		return nil, err
	}
	if err := configure(a, block); err != nil {
		return nil, fmt.Errorf("%s settings: %w", a.Name, err)
	}
	return &plugin{analyzers: enabled}, nil
}

var (
	claimsMu sync.Mutex
	claims   = map[string]string{} // analyzer name → plugin that configured it
)

// claim records that plugin configures the given analyzers, replacing what
// an earlier call for the same plugin recorded. An analyzer configured by
// two plugins is an error: their settings would overwrite each other's
// flags, and golangci-lint could attribute its issues to either linter.
func claim(plugin string, as []*analysis.Analyzer) error {
	claimsMu.Lock()
	defer claimsMu.Unlock()
	for _, a := range as {
		if other, ok := claims[a.Name]; ok && other != plugin {
			return fmt.Errorf("%s: analyzer %s is already configured by the %s plugin; configure it in one place (for example disable: [%s] in the %s settings)",
				plugin, a.Name, other, a.Name, Name)
		}
	}
	for name, p := range claims {
		if p == plugin {
			delete(claims, name)
		}
	}
	for _, a := range as {
		claims[a.Name] = plugin
	}
	return nil
}

func checkNames(key string, names []string) error {
	var known []string
	for _, a := range suite() {
		known = append(known, a.Name)
	}
	for _, n := range names {
		if !slices.Contains(known, n) {
			return fmt.Errorf("%s settings: %s: unknown analyzer %q (known: %s)", Name, key, n, strings.Join(known, ", "))
		}
	}
	return nil
}

// configure resets the flags of a to their defaults, then sets those given
// in block, a pointer to a settings struct (nil when there is none).
func configure(a *analysis.Analyzer, block any) error {
	var err error
	a.Flags.VisitAll(func(f *flag.Flag) {
		if e := a.Flags.Set(f.Name, f.DefValue); e != nil && err == nil {
			err = fmt.Errorf("internal error: resetting -%s.%s to %q: %v", a.Name, f.Name, f.DefValue, e)
		}
	})
	if err != nil || block == nil {
		return err
	}
	v := reflect.ValueOf(block).Elem()
	t := v.Type()
	for i := range t.NumField() {
		key, name := t.Field(i).Tag.Get("json"), t.Field(i).Tag.Get("flag")
		value, set, err := flagValue(v.Field(i))
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if !set {
			continue
		}
		if a.Flags.Lookup(name) == nil {
			return fmt.Errorf("%s: the analyzer has no flag -%s.%s", key, a.Name, name)
		}
		if err := a.Flags.Set(name, value); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	return nil
}

// flagValue returns the flag text for a settings field, and whether the
// field was given at all.
func flagValue(v reflect.Value) (string, bool, error) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return "", false, nil
		}
		return strconv.FormatBool(v.Elem().Bool()), true, nil
	case reflect.Slice:
		if v.IsNil() {
			return "", false, nil
		}
		list := v.Interface().([]string)
		for _, e := range list {
			// The flag is a comma-separated list: an element holding a
			// comma would silently become two.
			if e == "" || strings.Contains(e, ",") {
				return "", false, fmt.Errorf("list element %q: want a non-empty name without commas", e)
			}
		}
		return strings.Join(list, ","), true, nil
	}
	panic(fmt.Sprintf("internal error: settings field of kind %s", v.Kind()))
}

// explain rewords a decoding error of settings struct dst for people who
// wrote YAML: it names the offending key and lists the accepted ones.
func explain(err error, dst any) error {
	const unknown = "json: unknown field "
	if _, key, ok := strings.Cut(err.Error(), unknown); ok {
		return fmt.Errorf("unknown key %s (known: %s)", key, strings.Join(jsonKeys(dst), ", "))
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		if typeErr.Field == "" {
			return fmt.Errorf("want a mapping of settings, got %s", typeErr.Value)
		}
		return fmt.Errorf("%s: want %s, got %s", typeErr.Field, yamlType(typeErr.Type), typeErr.Value)
	}
	return err
}

func yamlType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list of strings"
	case reflect.String:
		return "a string"
	}
	return t.String()
}

func jsonKeys(v any) []string {
	t := reflect.TypeOf(v).Elem()
	var keys []string
	for i := range t.NumField() {
		keys = append(keys, t.Field(i).Tag.Get("json"))
	}
	return keys
}
