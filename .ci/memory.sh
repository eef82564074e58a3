#!/usr/bin/env bash
# Peak memory and time of the standalone driver against go vet, on a
# generated package whose one file holds N copies of a small retry loop
# (each gives three findings with related positions and fixes: retrybudget,
# retrysleep, retrydeadline). Issue 13, item 1: the standalone driver's
# memory grew with findings x file size.
#
#   .ci/memory.sh [N ...]          default: 1000 2000 4000
#   MEMORY_VET=0 .ci/memory.sh     skip the go vet runs
#   MEMORY_TIMEOUT=600             stop each run after that many seconds
#                                  (default 1800; a stopped run exits 124)
#   RETRYLINT_BIN=/abs/retrylint   measure that binary instead of building
#                                  this checkout (for a before/after pair)
#   MEMORY_MODULE=/abs/dir MEMORY_PATTERN='./a/... ./b' .ci/memory.sh module
#                                  measure a real module instead (tests off;
#                                  the patterns are split on spaces)
#
# Prints one line per run: N, door, max RSS (MB), wall time (s), exit
# code, findings. Uses /usr/bin/time -v (GNU time): for go vet, the RSS is
# that of its largest process (the vet tool on the generated package).
# Each N is a new module in a new directory, so go's vet result cache
# cannot answer for it; the facts of the standard library's packages come
# from go's cache after the first run, which the standalone driver always
# computes itself.
#
# Measured 2026-12-01 (2 shared cores, 23 GB, Go 1.26.8, under nice -n 10,
# other jobs running, so the wall times are rough). "before" is 1d7de5b
# plus this branch's items 2-4; "after" is the two memory commits
# (lines split once per file, a fingerprint's code cloned, fixes.Source,
# the enclosing function found by binary search):
#
#   N      door        before               after
#   1000   standalone  1085 MB   11.5 s      405 MB   10.5 s
#   1000   go vet        72 MB    2.8 s       91 MB   11.3 s
#   4000   standalone  6480 MB  169.8 s      482 MB   11.3 s
#   4000   go vet       371 MB   86.1 s      190 MB    7.8 s
#   20000  standalone  (not run: issue 13 saw it killed at 24 GB)
#                                              995 MB   50.4 s
#   20000  go vet      (issue 13: 3.3 GB, 482 s) 824 MB 66.4 s
#
# A real module, 2026-12-01 (session 6, same machine): prometheus v0.316.0,
# 75 packages (./tsdb/... ./storage/... ./model/... ./util/... ./scrape/...
# ./notifier/... ./rules/... ./promql/... ./config/... ./web/api/...
# ./tracing and six of ./discovery), tests off for standalone:
#
#   module standalone  2140 MB   10.8 s   9 findings
#   module go vet      3304 MB  617.8 s   9 findings (largest process of
#                      the run; go vet also compiled the dependencies and
#                      vetted the test variants)
#
# 3,000 / 12,000 / 60,000 findings, the same through both doors. About
# 380 MB of the standalone figure is the package graph (net/http and its
# dependencies, loaded from source for facts): N=50 takes 379 MB.
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
	# timeout stops a run that would take the machine down (exit 124).
	(cd "$dir" && /usr/bin/time -v -o "$tv" timeout "${MEMORY_TIMEOUT:-1800}" "$@" >"$out" 2>&1) || rc=$?
	local rss wall findings
	rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$tv")
	wall=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tv")
	# m:ss.ss or h:mm:ss -> seconds
	wall=$(awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.1f", s }' <<<"$wall")
	# A finding is a "file:line:col: message" line; related positions are
	# indented (standalone) or have a tab after the position (go vet).
	findings=$(grep -c -E '^[^[:space:]#][^[:space:]]*\.go:[0-9]+:[0-9]+: [^[:space:]]' "$out" || true)
	printf '%-8s %-10s rss %6d MB  wall %7s s  exit %d  findings %d\n' "$label" "$door" $((rss / 1024)) "$wall" "$rc" "$findings"
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
	read -r -a patterns <<<"${MEMORY_PATTERN:-./...}"
	measure module standalone "$dir" "$bin" -test=false "${patterns[@]}"
	if [[ ${MEMORY_VET:-1} != 0 ]]; then
		cp "$bin" "$work/vettool-module"
		measure module "go vet" "$dir" go vet -vettool="$work/vettool-module" "${patterns[@]}"
	fi
	exit 0
fi

for n in "${@:-1000 2000 4000}"; do
	for m in $n; do run_n "$m"; done
done
