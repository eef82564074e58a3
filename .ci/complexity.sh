#!/usr/bin/env bash
# Length and complexity limits for analyzers/ (issue 12) and budget/ (issue
# 35, the library and its modules): no function over
# 80 lines, none over cyclomatic complexity 30, testdata and _test.go files
# aside. Prints the top offenders and the averages of both, and fails past
# the limits.
#
# gocyclo v0.6.0 comes from the module proxy by `go install`; it and the
# line counter (.ci/funclen, a module of its own with no dependencies) are
# built into a cache directory, so a warm run only measures.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

max_lines=80
max_cyclo=30
ignore='_test\.go$|/testdata/'
dirs=(analyzers budget)

# Functions allowed over a limit, by "package function file" (line numbers
# move): none now. An entry needs a comment saying why and until when.
allowlist=()

cache=${RETRYLINT_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/retrylint-ci}
bin=$cache/bin
mkdir -p "$bin"
# Built beside and renamed into place: a concurrent run never sees half a
# binary.
if [[ ! -x $bin/gocyclo-v0.6.0 ]]; then
	tmp=$(mktemp -d "$cache/.gocyclo.XXXXXX")
	GOBIN=$tmp go install github.com/fzipp/gocyclo/cmd/gocyclo@v0.6.0
	mv -f "$tmp/gocyclo" "$bin/gocyclo-v0.6.0"
	rm -rf "$tmp"
fi
gocyclo=$bin/gocyclo-v0.6.0
# Always rebuilt: the Go build cache makes an unchanged one cost nothing.
(cd "$root/.ci/funclen" && go build -o "$bin/.funclen.$$" . && mv -f "$bin/.funclen.$$" "$bin/funclen")
funclen=$bin/funclen

# over LIMIT TOOL...: the tool's report of the functions past the limit,
# one "N package function file:line:col" a line. Both tools exit 1 when
# there is one; any other failure is the tool's and stops the script.
over() {
	local limit=$1 out rc=0
	shift
	out=$("$@" -over "$limit" -ignore "$ignore" "${dirs[@]}") || rc=$?
	if [[ $rc -gt 1 ]]; then
		echo "complexity.sh: $1 failed (exit $rc)" >&2
		exit 2
	fi
	[[ -z $out ]] || printf '%s\n' "$out"
}

# key LINE: "package function file" of a report line.
key() {
	local k=${1#* }
	printf '%s\n' "${k%:*:*}"
}

# allowed KEY reports whether KEY is on the allow-list.
allowed() {
	local a
	for a in "${allowlist[@]}"; do
		[[ $1 == "$a" ]] && return 0
	done
	return 1
}

echo "longest functions (limit $max_lines lines):"
"$funclen" -top 10 -avg -ignore "$ignore" "${dirs[@]}"
echo
echo "most complex functions (limit cyclomatic $max_cyclo):"
"$gocyclo" -top 10 -ignore "$ignore" "${dirs[@]}"
"$gocyclo" -avg -ignore "$ignore" "${dirs[@]}" | tail -n 1
echo

long=$(over "$max_lines" "$funclen")
complex=$(over "$max_cyclo" "$gocyclo")
fail=0
report() {
	local what=$1 lines=$2 line bad=
	while IFS= read -r line; do
		[[ -n $line ]] || continue
		allowed "$(key "$line")" || bad+="$line"$'\n'
	done <<<"$lines"
	if [[ -n $bad ]]; then
		echo "functions over $what:"
		printf '%s' "$bad"
		echo
		fail=1
	fi
}
report "$max_lines lines" "$long"
report "cyclomatic complexity $max_cyclo" "$complex"
# An entry that is no longer past either limit would let the function grow
# back unseen: the list must name exactly the functions still over.
for a in "${allowlist[@]}"; do
	found=
	while IFS= read -r line; do
		[[ -n $line && $(key "$line") == "$a" ]] && found=1
	done <<<"$long"$'\n'"$complex"
	if [[ -z $found ]]; then
		echo "allow-listed but within the limits now: $a (remove it from .ci/complexity.sh)"
		fail=1
	fi
done
if [[ $fail != 0 ]]; then
	echo "split them into smaller functions, one decision each"
	exit 1
fi
echo "within the limits (allow-listed for now: ${#allowlist[@]}, see .ci/complexity.sh)"
