// Command golangci is golangci-lint v2.15.0 with the retrylint module
// plugin compiled in ("recipe B" of /work/shared/INTEGRATION.md): the same
// binary `golangci-lint custom` would produce, built with plain `go build`
// from a pinned, checksummed module graph and without cloning GitHub.
//
// Build it with .ci/golangci.sh, which caches the binary.
package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/golangci/golangci-lint/v2/pkg/commands"

	_ "github.com/retrylint/retrylint/plugin"
)

func main() {
	info := commands.BuildInfo{
		// "(devel)" makes golangci-lint salt its result cache with a hash
		// of this executable, so a rebuilt plugin never serves stale
		// findings. A fixed version string would be the salt instead.
		Version:   "(devel)",
		GoVersion: runtime.Version(),
		Commit:    "retrylint",
		Date:      "",
	}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "Failed executing command with error: %v\n", err)
		os.Exit(3)
	}
}
