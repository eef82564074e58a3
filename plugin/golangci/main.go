// Command golangci is golangci-lint v2.15.0 with the retrylint module
// plugin compiled in ("recipe B" of the integration notes): the binary
// `golangci-lint custom` builds from .custom-gcl.yml, built instead with a
// plain `go build` from a pinned, checksummed module graph, without
// cloning GitHub. .ci/golangci.sh builds and caches it.
package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/retrylint/retrylint/plugin"
)

func main() {
	info := commands.BuildInfo{
		// "(devel)" makes golangci-lint salt its result cache with a hash
		// of this executable, so a rebuilt plugin never serves stale
		// results. A fixed version string would be the salt instead.
		Version:   "(devel)",
		GoVersion: runtime.Version(),
		Commit:    "retrylint plugin",
	}
	if err := commands.Execute(info); err != nil {
		// The same words and exit code (3) as the stock main.
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
