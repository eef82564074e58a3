// Package header resolves the header-name overrides that budget.Transport
// and shed.Guard share.
package header

// Name returns the header to use: def when override is empty, none (the
// empty string) when it is "-", else override.
func Name(override, def string) string {
	switch override {
	case "":
		return def
	case "-":
		return ""
	}
	return override
}
