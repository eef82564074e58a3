#!/usr/bin/env bash
# Peak memory and time of the standalone driver against go vet, on a
# generated package whose one file holds N copies of a small retry loop
# (each gives three findings with related positions and fixes: retrybudget,
# retrysleep, retrydeadline). Issue 13, item 1: the standalone driver's
# memory grew with findings x file size.
#
#   .ci/memory.sh [N ...]          default: 1000 2000 4000
#   MEMORY_VET=0 .ci/memory.sh     skip the go vet runs
#   RETRYLINT_BIN=/abs/retrylint   measure that binary instead of building
#                                  this checkout (for a before/after pair)
#   MEMORY_MODULE=/abs/dir MEMORY_PATTERN=./... .ci/memory.sh module
#                                  measure a real module instead (tests off)
#
# Prints one line per run: N, door, max RSS (MB), wall time (s), findings.
# Uses /usr/bin/time -v (GNU time). Each go vet run uses a new -vettool
# binary copy, so go's vet result cache cannot answer for it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/retrylint-memory.XXXXXX")
trap 'rm -rf "$work"' EXIT

bin=${RETRYLINT_BIN:-}
if [[ -z $bin ]]; then
	bin=$work/retrylint
	(cd "$root" && go build -o "$bin" ./cmd/retrylint)
fi

# gen N DIR writes the module example.com/memgen with package gen.
gen() {
	local n=$1 dir=$2
	mkdir -p "$dir/gen"
	printf 'module example.com/memgen\n\ngo 1.22\n' >"$dir/go.mod"
	{
		printf '// Code written by .ci/memory.sh; not generated in the go:generate sense,\n'
		printf '// so that fixes are offered as in hand-written code.\n\n'
		printf 'package gen\n\nimport (\n\t"net/http"\n\t"time"\n)\n'
		for ((i = 0; i < n; i++)); do
			printf '\nfunc F%d(url string) (*http.Response, error) {\n\tvar err error\n\tfor i := 0; i < 3; i++ {\n\t\tvar resp *http.Response\n\t\tresp, err = http.Get(url)\n\t\tif err == nil {\n\t\t\treturn resp, nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\treturn nil, err\n}\n' "$i"
		done
	} >"$dir/gen/gen.go"
}

# measure LABEL DOOR DIR CMD... runs CMD in DIR under /usr/bin/time -v.
measure() {
	local label=$1 door=$2 dir=$3
	shift 3
	local out=$work/out.txt tv=$work/time.txt rc=0
	(cd "$dir" && /usr/bin/time -v -o "$tv" "$@" >"$out" 2>&1) || rc=$?
	local rss wall findings
	rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$tv")
	wall=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tv")
	# m:ss.ss or h:mm:ss -> seconds
	wall=$(awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.1f", s }' <<<"$wall")
	findings=$(grep -c -E '\((retrybudget|retrysleep|retrydeadline|retryjitter|retryidempotency)\)$|^[^[:space:]].*\.go:[0-9]+:[0-9]+: ' "$out" || true)
	printf '%-8s %-10s rss %6d MB  wall %7s s  exit %d  lines %d\n' "$label" "$door" $((rss / 1024)) "$wall" "$rc" "$findings"
}

run_n() {
	local n=$1 dir=$work/m$1
	gen "$n" "$dir"
	measure "$n" standalone "$dir" "$bin" -test=false ./...
	if [[ ${MEMORY_VET:-1} != 0 ]]; then
		cp "$bin" "$work/vettool-$n"
		measure "$n" "go vet" "$dir" go vet -vettool="$work/vettool-$n" ./...
	fi
}

if [[ ${1:-} == module ]]; then
	dir=${MEMORY_MODULE:?set MEMORY_MODULE to a module directory}
	pattern=${MEMORY_PATTERN:-./...}
	measure module standalone "$dir" "$bin" -test=false "$pattern"
	if [[ ${MEMORY_VET:-1} != 0 ]]; then
		cp "$bin" "$work/vettool-module"
		measure module "go vet" "$dir" go vet -vettool="$work/vettool-module" "$pattern"
	fi
	exit 0
fi

for n in "${@:-1000 2000 4000}"; do
	for m in $n; do run_n "$m"; done
done
