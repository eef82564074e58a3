#!/usr/bin/env bash
# sweep.sh: the crash sweep. Runs a built retrylint over std, every
# realmods.txt module and every module of the accuracy corpus (the dev
# split accuracy/modules.tsv and the test split accuracy/test/modules.tsv),
# standalone and, for std, under go vet -vettool, and fails on any fatal
# error, panic, internal error or analyzer error. Findings never fail it.
# Run it before every stop that touches analyzers/ and say its result in
# the closing note. By hand: it downloads many modules and takes long.
#
# Usage: .ci/sweep.sh [OUTDIR] [std|mods|accuracy|all]   (default all)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/sweep.XXXXXX")}
what=${2:-all}
mkdir -p "$out" && out=$(cd "$out" && pwd)
bin=$out/retrylint
(cd "$root" && go build -o "$bin" ./cmd/retrylint) || exit 2
bad='fatal error|^panic|goroutine [0-9]+ \[|internal error|analyzer [a-z]+ failed'
fail=0
check() { # name file...
	local name=$1
	shift
	if grep -Eqs "$bad" "$@"; then
		echo "sweep: $name: CRASH"
		grep -Ehs -m3 "$bad" "$@" | sed 's/^/  /'
		fail=1
	else
		echo "sweep: $name: ok"
	fi
}
case $what in std | all)
	(cd "$root" && go vet -vettool="$bin" std) >"$out/vet-std.txt" 2>&1
	check "go vet -vettool std" "$out/vet-std.txt"
	;;
esac
case $what in std | mods | all)
	mode=all
	[ "$what" = std ] && mode=std
	[ "$what" = mods ] && mode=mods
	"$root/.ci/realmods.sh" "$bin" "$out/realmods" "$mode" || { echo "sweep: realmods: FAILED (see $out/realmods)"; fail=1; }
	;;
esac
case $what in accuracy | all)
	for split in "$root/accuracy" "$root/accuracy/test"; do
		[ -f "$split/modules.tsv" ] || continue
		dir=$out/accuracy-$(basename "$split")
		ACCURACY_BIN=$bin ACCURACY_NOSCORE=1 "$root/accuracy/run.sh" "$dir" "${ACCURACY_FILTER:-.}" "$split/modules.tsv" >/dev/null 2>"$dir.log"
		check "accuracy $(basename "$split")" "$dir"/*.stderr
	done
	;;
esac
exit $fail
