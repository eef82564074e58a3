#!/usr/bin/env bash
# Times the README's test command on a cold cache: a fresh clone of HEAD,
# an empty GOMODCACHE and GOCACHE (temporary directories), the command
# exactly as the README writes it. Prints each package's result line with
# the wall-clock second (since the start) at which it finished, then the
# total. Exits with the test command's status.
#
# Usage: .ci/coldtest.sh [LOGFILE]
#   RETRYLINT_COLD_KEEP=1  keep the temporary directories (for a look after)
#   RETRYLINT_COLD_DIR=D   work in D (made here; must not exist) and keep it
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
log=${1:-}
cmd=$(sed -n '/^Run the tests of the three modules/,/^```$/{/^go test/p}' "$here/README.md")
[ -n "$cmd" ] || { echo "coldtest: no test command found in README.md" >&2; exit 2; }

if [ -n "${RETRYLINT_COLD_DIR:-}" ]; then
	# The caller keeps the directory (and its caches) for the steps after.
	mkdir "$RETRYLINT_COLD_DIR" || exit 2
	tmp=$RETRYLINT_COLD_DIR
	RETRYLINT_COLD_KEEP=1
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/coldtest.XXXXXX")
fi
[ -n "$log" ] || log=$tmp/test.log
cleanup() {
	if [ "${RETRYLINT_COLD_KEEP:-0}" != 1 ]; then
		chmod -R u+w "$tmp" 2>/dev/null
		rm -rf "$tmp"
	else
		echo "coldtest: kept $tmp" >&2
	fi
}
trap cleanup EXIT
git clone -q "$here" "$tmp/clone" || exit 2
mkdir -p "$tmp/mod" "$tmp/cache"
export GOMODCACHE=$tmp/mod GOCACHE=$tmp/cache GOFLAGS=
echo "coldtest: $cmd" >&2
echo "coldtest: in a fresh clone of $(git -C "$here" rev-parse --short HEAD), GOMODCACHE and GOCACHE empty, $(nproc) cores" >&2
start=$(date +%s)
(cd "$tmp/clone" && bash -c "$cmd") 2>&1 | while IFS= read -r line; do
	printf '%4ds  %s\n' "$(($(date +%s) - start))" "$line"
done | tee "$log"
rc=${PIPESTATUS[0]}
wall=$(($(date +%s) - start))
# go test prints packages in order, so the wall second a line shows is when
# it was printed; the time go test reports is the test binary's own run.
echo "coldtest: per package (test run time as go test reports it; slowest first):" >&2
sed -n 's/^ *[0-9]*s  \(ok\|FAIL\)[[:space:]]*\([^[:space:]]*\)[[:space:]]*\([0-9.]*\)s.*/\3 \1 \2/p' "$log" |
	sort -rn | awk '{ printf "coldtest: %8.1fs  %-4s %s\n", $1, $2, $3 }' >&2
echo "coldtest: total wall ${wall}s (clone excluded), exit $rc" >&2
exit "$rc"
