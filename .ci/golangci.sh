#!/usr/bin/env bash
# golangci-lint v2.15.0 with the retrylint module plugin, built with
# "recipe B" (plain `go build` of the nested module plugin/golangci; no
# GitHub clone) and cached by content.
#
# Run it:
#   .ci/golangci.sh [build]   build or reuse the binary; print its path on stdout
#   .ci/golangci.sh test      build, then run the real-golangci e2e tests
#                             (go test ./plugin -run TestGolangci)
#   .ci/golangci.sh lint ARGS build, then run the binary: lint ARGS == run ARGS
#   .ci/golangci.sh custom    build the same with the real `golangci-lint custom`
#                             and .custom-gcl.yml (offline-redirected clone);
#                             print its path
#   .ci/golangci.sh custom-test  the e2e tests against that binary
# Or source it (from bash) and call the functions:
#   . .ci/golangci.sh
#   bin=$(retrylint_golangci_bin)          # same as `build`
#   retrylint_golangci_test [go test flags]
#   retrylint_golangci_custom; retrylint_golangci_custom_test [go test flags]
#
# The cache key is a SHA-256 of the Go version, plugin/golangci/{go.mod,go.sum,
# main.go}, the root go.mod/go.sum and every non-test .go file of the root
# module outside testdata and nested modules: anything that can change the
# binary. Binaries live in ${RETRYLINT_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/retrylint-ci}.
# A cold build takes minutes (about 210 modules, ~650 MB of GOCACHE); a warm
# one, seconds. Logs go to stderr; stdout carries only the path.

retrylint_root() {
	(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
}

# retrylint_golangci_key prints the cache key.
retrylint_golangci_key() {
	local root
	root=$(retrylint_root) || return
	(
		set -o pipefail
		cd "$root" || exit
		# Nested modules (any directory below the root holding a go.mod)
		# and testdata are not part of the root module.
		prune=()
		while IFS= read -r d; do
			prune+=(-path "$d" -prune -o)
		done < <(find . -mindepth 2 -name go.mod -not -path './.git/*' -printf '%h\n')
		files=$(
			printf '%s\n' plugin/golangci/go.mod plugin/golangci/go.sum plugin/golangci/main.go go.mod go.sum
			find . \( -name .git -o -name testdata \) -prune -o "${prune[@]}" \
				-type f -name '*.go' ! -name '*_test.go' -print | sed 's|^\./||' | LC_ALL=C sort
		) || exit
		{
			go env GOVERSION GOOS GOARCH || exit
			while IFS= read -r f; do
				printf '%s ' "$f"
				sha256sum <"$f" || exit
			done <<<"$files"
		} | sha256sum | cut -c1-16
	)
}

# retrylint_golangci_bin builds the binary unless a cached one matches, and
# prints its absolute path.
retrylint_golangci_bin() {
	local root key dir bin tmp start
	root=$(retrylint_root) || return
	key=$(retrylint_golangci_key) || return
	dir=${RETRYLINT_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/retrylint-ci}
	bin=$dir/golangci-lint-retrylint-$key
	if [[ -x $bin ]]; then
		echo "golangci.sh: cached $bin" >&2
		printf '%s\n' "$bin"
		return 0
	fi
	mkdir -p "$dir" || return
	tmp=$(mktemp "$dir/.build.XXXXXX") || return
	start=$SECONDS
	echo "golangci.sh: building golangci-lint v2.15.0 + retrylint plugin (key $key); a cold build takes minutes" >&2
	if ! (cd "$root/plugin/golangci" && go build -trimpath -ldflags '-s -w' -o "$tmp" .); then
		rm -f "$tmp"
		echo "golangci.sh: build failed. After a change to the root go.mod, run" >&2
		echo "golangci.sh:   (cd plugin/golangci && go mod tidy) and commit its go.mod and go.sum" >&2
		return 1
	fi
	mv -f "$tmp" "$bin" || return # atomic: concurrent runs never see half a binary
	echo "golangci.sh: built in $((SECONDS - start))s: $bin" >&2
	# Keep the three newest binaries; each is about 50 MB.
	ls -1t "$dir"/golangci-lint-retrylint-* 2>/dev/null | tail -n +4 | xargs -r rm -f
	printf '%s\n' "$bin"
}

# retrylint_golangci_custom builds the same binary with the real
# `golangci-lint custom` from .custom-gcl.yml, which proves that file; it
# prints the binary's path. custom always clones
# https://github.com/golangci/golangci-lint.git; the clone is redirected
# (GIT_CONFIG_* url.insteadOf, which custom passes to git) to a local git
# repository made from the golangci-lint module source in the module cache.
# The `custom` command comes from the recipe-B binary. Its `go mod tidy`
# step needs the module proxy (test-only modules of golangci-lint).
retrylint_golangci_custom() {
	local root key dir bin builder version name mirror src tmp out
	root=$(retrylint_root) || return
	key=$(retrylint_golangci_key) || return
	dir=${RETRYLINT_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/retrylint-ci}
	bin=$dir/custom-gcl-retrylint-$key
	if [[ -x $bin ]]; then
		echo "golangci.sh: cached $bin" >&2
		printf '%s\n' "$bin"
		return 0
	fi
	builder=$(retrylint_golangci_bin) || return
	version=$(sed -n 's/^version: *//p' "$root/.custom-gcl.yml")
	name=$(sed -n 's/^name: *//p' "$root/.custom-gcl.yml")
	mirror=$dir/golangci-lint-$version.git
	if [[ ! -d $mirror ]]; then
		src=$(go mod download -json "github.com/golangci/golangci-lint/v2@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
		[[ -d $src ]] || { echo "golangci.sh: no module source for golangci-lint $version" >&2; return 1; }
		tmp=$(mktemp -d "$dir/.mirror.XXXXXX") || return
		cp -r "$src/." "$tmp" && chmod -R u+w "$tmp" &&
			git -C "$tmp" init -q && git -C "$tmp" add -A &&
			git -C "$tmp" -c user.name=retrylint-ci -c user.email=ci@retrylint.invalid commit -qm "golangci-lint $version" &&
			git -C "$tmp" tag "$version" && mv "$tmp" "$mirror" || { rm -rf "$tmp"; return 1; }
	fi
	out=$(mktemp -d "$dir/.custom.XXXXXX") || return
	echo "golangci.sh: golangci-lint custom (.custom-gcl.yml, clone redirected to $mirror)" >&2
	# -trimpath lets build-cache entries survive custom's random temp dir.
	if ! (cd "$root" && GOFLAGS="${GOFLAGS:-} -trimpath" GIT_CONFIG_COUNT=1 \
		GIT_CONFIG_KEY_0="url.file://$mirror.insteadOf" \
		GIT_CONFIG_VALUE_0=https://github.com/golangci/golangci-lint.git \
		"$builder" custom --destination "$out" >&2); then
		rm -rf "$out"
		echo "golangci.sh: golangci-lint custom failed" >&2
		return 1
	fi
	mv -f "$out/$name" "$bin" && rm -rf "$out" || return
	ls -1t "$dir"/custom-gcl-retrylint-* 2>/dev/null | tail -n +3 | xargs -r rm -f
	printf '%s\n' "$bin"
}

# retrylint_golangci_test runs the e2e tests of plugin/e2e_test.go against
# the real binary. Extra arguments go to `go test`.
retrylint_golangci_test() {
	local root bin
	root=$(retrylint_root) || return
	bin=$(retrylint_golangci_bin) || return
	(cd "$root" && RETRYLINT_GOLANGCI_BIN=$bin go test -count=1 -run '^TestGolangci' "$@" ./plugin/)
}

# retrylint_golangci_custom_test runs the same tests against the binary
# that `golangci-lint custom` built.
retrylint_golangci_custom_test() {
	local root bin
	root=$(retrylint_root) || return
	bin=$(retrylint_golangci_custom) || return
	(cd "$root" && RETRYLINT_GOLANGCI_BIN=$bin go test -count=1 -run '^TestGolangci' "$@" ./plugin/)
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -euo pipefail
	case ${1:-build} in
	build) retrylint_golangci_bin ;;
	test) shift; retrylint_golangci_test "$@" ;;
	lint) shift; bin=$(retrylint_golangci_bin); exec "$bin" run "$@" ;;
	custom) retrylint_golangci_custom ;;
	custom-test) shift; retrylint_golangci_custom_test "$@" ;;
	key) retrylint_golangci_key ;;
	*) echo "usage: $0 [build|test [go test flags]|lint [run args]|custom|custom-test [go test flags]|key]" >&2; exit 2 ;;
	esac
fi
