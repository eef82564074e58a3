#!/usr/bin/env bash
# realmods.sh runs a built retrylint binary over real modules pinned in
# realmods.txt (and, on request, over the standard library) and records per
# module what happened: exit code, findings per analyzer, analyzer errors and
# panics.
#
# Usage:
#   .ci/realmods.sh BINARY OUTDIR [mods|std|all] [MODULE-REGEXP]
#
#   BINARY         the retrylint binary under test (made absolute)
#   OUTDIR         where the raw JSON, stderr and summary.tsv of each run go
#   mods|std|all   what to run: the modules of realmods.txt (default), the
#                  standard library (`retrylint std`), or both
#   MODULE-REGEXP  run only the modules whose path matches (grep -E)
#
# Environment:
#   REALMODS_LIST     list to read (default: realmods.txt next to this script)
#   REALMODS_TIMEOUT  seconds allowed per module run (default 240)
#   REALMODS_FLAGS    extra flags for retrylint, e.g. "-retrybudget.tests=false"
#   REALMODS_STRICT   if 1, a module whose packages fail to load fails the run
#   REALMODS_STD_TESTS  if 1, the std run includes test files (slow)
#   REALMODS_FIX      if 1, each module copy is then fixed: `retrylint -fix`
#                     onto the budget module of this checkout (a replace),
#                     then go build and go vet of the patterns, then a
#                     second -fix that must change nothing. The rows go to
#                     fix.tsv; a fixed module that no longer builds, or
#                     vets worse than before, or changes on the second
#                     -fix fails the run.
#
# Findings never fail the run: real code is expected to have some. The run
# fails (exit 1) when retrylint reports an analyzer error, panics, hits an
# "internal error", times out, or exits without JSON; or, with REALMODS_STRICT,
# when a module does not load. Exit 2 is a usage or setup problem.
#
# Each module is copied out of the module cache into a fresh temporary
# directory with write permission, so `go mod download` can fill in go.sum
# without touching the cache, and the copy lives outside any GOPATH.

set -uo pipefail

usage() {
	sed -n '2,/^$/{s/^# \{0,1\}//;p}' "$0" >&2
	exit 2
}

[ $# -ge 2 ] || usage
bin=$1
out=$2
mode=${3:-mods}
filter=${4:-}
case $mode in mods | std | all) ;; *) usage ;; esac

here=$(cd "$(dirname "$0")" && pwd)
list=${REALMODS_LIST:-$here/realmods.txt}
limit=${REALMODS_TIMEOUT:-240}
read -r -a extra <<<"${REALMODS_FLAGS:-}"

command -v jq >/dev/null || { echo "realmods: jq is required" >&2; exit 2; }
command -v go >/dev/null || { echo "realmods: go is required" >&2; exit 2; }
[ -x "$bin" ] || { echo "realmods: $bin is not an executable" >&2; exit 2; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)

analyzers=(retrybudget retryjitter retrysleep retryidempotency retrydeadline retrynested)

work=$(mktemp -d "${TMPDIR:-/tmp}/realmods.XXXXXX") || exit 2
cleanup() { chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# The toolchain is the one under test; never let a module's go line fetch
# another. Vendor directories and workspaces of the host must not leak in.
export GOTOOLCHAIN=local GOWORK=off GOFLAGS="-mod=mod -buildvcs=false"

failed=0
budgetdir=$(cd "$here/../budget" && pwd)
[ "${REALMODS_FIX:-0}" = 1 ] &&
	printf 'module\tversion\tedited\tbefore\tafter\tbuild\tvet\tsecond\tstatus\n' >"$out/fix.tsv"
summary=$out/summary.tsv
printf 'module\tversion\tload\trc\tsecs\t%s\terrors\tpanic\tstatus\n' \
	"$(IFS=$'\t'; echo "${analyzers[*]}")" >"$summary"

# slug turns a module path into a file name.
slug() { echo "$1" | tr '/@' '__'; }

# isjson reports whether file holds exactly one JSON object (jq -e alone
# accepts an empty file).
isjson() { jq -es 'length == 1 and (.[0] | type == "object")' "$1" >/dev/null 2>&1; }

# analyse runs the binary in dir over patterns, and appends one summary row.
# Arguments: name version dir loadstatus patterns...
analyse() {
	local name=$1 version=$2 dir=$3 load=$4
	shift 4
	local base rc start secs
	base=$out/$(slug "$name@$version")
	start=$(date +%s)
	(cd "$dir" && timeout "$limit" "$bin" -json "${extra[@]}" "$@") \
		>"$base.json" 2>"$base.stderr"
	rc=$?
	secs=$(($(date +%s) - start))

	local status=ok counts=() errors=0 skipped=0 panics=0 n a
	: >"$base.errors"
	if [ "$rc" -eq 124 ]; then
		status="timeout after ${limit}s"
	elif ! isjson "$base.json"; then
		status="no JSON output (exit $rc)"
	fi
	if isjson "$base.json"; then
		for a in "${analyzers[@]}"; do
			n=$(jq --arg a "$a" '[.[] | .[$a] | select(type == "array") | length] | add // 0' "$base.json")
			counts+=("$n")
		done
		# Every analyzer error counts, the helper retryloop's included,
		# except the checker's own refusal to run on an ill-typed package,
		# which is a load problem and already shows in the load column.
		errors=$(jq '[.[] | .[] | select(type == "object" and has("error")) | .error
			| select(test("analysis skipped due to errors in package") | not)] | length' "$base.json")
		skipped=$(jq '[.[] | .[] | select(type == "object" and has("error")) | .error
			| select(test("analysis skipped due to errors in package"))] | length' "$base.json")
		jq -r 'to_entries[] | .key as $p | .value | to_entries[]
			| select(.value | type == "object" and has("error"))
			| "\($p)\t\(.key)\t\(.value.error)"' "$base.json" >"$base.errors"
	else
		for a in "${analyzers[@]}"; do counts+=(-); done
	fi
	# A diagnostic may well mention a panic; only the driver's own output
	# and the analyzers' errors count.
	panics=$(cat "$base.stderr" "$base.errors" 2>/dev/null | grep -Eci 'panic|internal error')
	if [ "$skipped" -gt 0 ] && [ "$load" = ok ]; then
		load="skipped $skipped"
	fi

	if [ "$panics" -gt 0 ]; then
		status=PANIC
	elif [ "$status" = ok ]; then
		if [ "$errors" -gt 0 ]; then
			status="analyzer errors"
		elif [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 3 ]; then
			status="exit $rc"
		elif [ "$rc" -eq 1 ] && [ "$load" = ok ]; then
			# Exit 1 with a clean load and no analyzer error in the JSON
			# means the driver failed in a way this script cannot see.
			status="exit 1"
		elif [ "$load" != ok ] && [ "${REALMODS_STRICT:-0}" = 1 ]; then
			status="load failed"
		fi
	fi
	[ "$status" = ok ] || failed=1

	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$version" "$load" \
		"$rc" "$secs" "$(IFS=$'\t'; echo "${counts[*]}")" "$errors" "$panics" \
		"$status" >>"$summary"
	echo "realmods: $name@$version: $status (exit $rc, ${secs}s)" >&2
}

# fixcheck applies the suggested fixes to the module copy in dir and checks
# the result builds, vets no worse than before and is stable under a second
# -fix. Arguments: name version dir patterns...
fixcheck() {
	local name=$1 version=$2 dir=$3
	shift 3
	local base vet0 rc1 build vet1 rc2 changed edited before after status=ok
	base=$out/$(slug "$name@$version").fix
	: >"$base.log"
	vet0=ok
	(cd "$dir" && go vet "$@") >>"$base.log" 2>&1 || vet0=fail
	cp -R "$dir" "$work/orig" || return 1
	(cd "$dir" && go mod edit -require=github.com/retrylint/retrylint/budget@v0.0.0 \
		-replace=github.com/retrylint/retrylint/budget="$budgetdir") >>"$base.log" 2>&1
	before=$(cd "$dir" && timeout "$limit" "$bin" -json "${extra[@]}" "$@" 2>/dev/null | jq '[.[] | .[] | select(type == "array") | length] | add // 0')
	(cd "$dir" && timeout "$limit" "$bin" -fix "${extra[@]}" "$@") >>"$base.log" 2>&1
	rc1=$?
	edited=$(diff -rq "$work/orig" "$dir" 2>/dev/null | grep -v 'go\.mod\|go\.sum' | grep -c .)
	diff -ru "$work/orig" "$dir" >"$base.diff" 2>/dev/null
	build=ok
	(cd "$dir" && go build "$@") >>"$base.log" 2>&1 || build=fail
	vet1=ok
	(cd "$dir" && go vet "$@") >>"$base.log" 2>&1 || vet1=fail
	after=$(cd "$dir" && timeout "$limit" "$bin" -json "${extra[@]}" "$@" 2>/dev/null | jq '[.[] | .[] | select(type == "array") | length] | add // 0')
	rm -rf "$work/orig" && cp -R "$dir" "$work/orig"
	(cd "$dir" && timeout "$limit" "$bin" -fix "${extra[@]}" "$@") >>"$base.log" 2>&1
	rc2=$?
	changed=$(diff -rq "$work/orig" "$dir" 2>/dev/null | grep -c .)
	chmod -R u+w "$work/orig" && rm -rf "$work/orig"
	if [ "$rc1" -ne 0 ] && [ "$rc1" -ne 3 ] || [ "$rc2" -ne 0 ] && [ "$rc2" -ne 3 ]; then
		status="fix exit $rc1/$rc2"
	elif [ "$build" != ok ]; then
		status="build fails after fix"
	elif [ "$vet0" = ok ] && [ "$vet1" != ok ]; then
		status="vet fails after fix"
	elif [ "$changed" -ne 0 ]; then
		status="second -fix changed $changed files"
	fi
	[ "$status" = ok ] || failed=1
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$version" "$edited" \
		"$before" "$after" "$build" "$vet0/$vet1" "$changed" "$status" >>"$out/fix.tsv"
	echo "realmods: $name@$version: fix: $status ($edited files edited, findings $before -> $after)" >&2
}

# prepare copies module@version into the work dir and fetches what the
# given packages need. It prints the directory; on failure it prints why to
# stderr and returns non-zero.
prepare() {
	local mod=$1 version=$2
	shift 2
	local src dst log
	log=$out/$(slug "$mod@$version").load
	: >"$log"
	src=$(go mod download -json "$mod@$version" 2>>"$log" | jq -r '.Dir // empty')
	if [ -z "$src" ] || [ ! -d "$src" ]; then
		echo "download failed"
		return 1
	fi
	dst=$work/$(slug "$mod@$version")
	cp -R "$src" "$dst" && chmod -R u+w "$dst" || { echo "copy failed"; return 1; }
	[ -f "$dst/go.mod" ] || (cd "$dst" && go mod init "$mod" >>"$log" 2>&1)
	# go list with -mod=mod records missing sums and downloads exactly the
	# dependencies the chosen packages and their tests import; tidy is the
	# fallback for a module whose go.sum is stale.
	if ! (cd "$dst" && go list -e -deps -test "$@" >/dev/null 2>>"$log"); then
		(cd "$dst" && go mod tidy -e >>"$log" 2>&1)
	fi
	echo "$dst"
}

# loadstatus reports "ok" or how many of the packages (tests included) in
# dir fail to load; the details go to the .load log.
loadstatus() {
	local dir=$1 log=$2 n
	shift 2
	n=$(cd "$dir" && go list -e -test \
		-f '{{if .Error}}{{.ImportPath}}: {{.Error}}{{"\n"}}{{end}}{{range .DepsErrors}}{{.}}{{"\n"}}{{end}}' \
		"$@" 2>>"$log" | tee -a "$log" | grep -c .)
	if [ "$n" -eq 0 ]; then echo ok; else echo "$n pkg errors"; fi
}

if [ "$mode" = mods ] || [ "$mode" = all ]; then
	[ -f "$list" ] || { echo "realmods: no list $list" >&2; exit 2; }
	while read -r spec patterns <&3; do
		case $spec in '' | '#'*) continue ;; esac
		mod=${spec%@*}
		version=${spec#*@}
		if [ -n "$filter" ] && ! echo "$mod" | grep -Eq "$filter"; then
			continue
		fi
		read -r -a pats <<<"${patterns:-./...}"
		[ ${#pats[@]} -gt 0 ] || pats=(./...)
		echo "realmods: preparing $mod@$version" >&2
		start=$(date +%s)
		if ! dir=$(prepare "$mod" "$version" "${pats[@]}"); then
			printf '%s\t%s\t%s\t-\t0\t-\t-\t-\t-\t-\t-\t-\tnot run\n' \
				"$mod" "$version" "$dir" >>"$summary"
			echo "realmods: $mod@$version: $dir" >&2
			failed=1
			continue
		fi
		load=$(loadstatus "$dir" "$out/$(slug "$mod@$version").load" "${pats[@]}")
		echo "realmods: prepared $mod@$version in $(($(date +%s) - start))s (load: $load)" >&2
		analyse "$mod" "$version" "$dir" "$load" "${pats[@]}"
		if [ "${REALMODS_FIX:-0}" = 1 ]; then
			fixcheck "$mod" "$version" "$dir" "${pats[@]}"
		fi
		chmod -R u+w "$dir" && rm -rf "$dir"
	done 3<"$list"
fi

if [ "$mode" = std ] || [ "$mode" = all ]; then
	# Outside any module, so std resolves to GOROOT alone. The test
	# variants of std multiply the load several-fold (minutes, not seconds),
	# so they are opt-in.
	mkdir -p "$work/std"
	stdtests=-test=false
	[ "${REALMODS_STD_TESTS:-0}" = 1 ] && stdtests=-test=true
	GOFLAGS=-buildvcs=false analyse std "$(go env GOVERSION)" "$work/std" ok "$stdtests" std
fi

echo
column -t -s $'\t' "$summary" 2>/dev/null || cat "$summary"
if [ "$failed" -ne 0 ]; then
	echo "realmods: FAILED (see $out)" >&2
	exit 1
fi
echo "realmods: ok (raw results in $out)" >&2
