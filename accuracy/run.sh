#!/usr/bin/env bash
# Runs retrylint (default flags, -json) over every module of the accuracy
# corpus at its pinned version and scores the findings against the blind
# labels. By hand, not in CI: it downloads some 30 modules.
#
# Usage: accuracy/run.sh [OUTDIR] [MODULE-REGEXP] [MODULES-FILE]
#   OUTDIR         raw results (default: a temporary directory, printed)
#   MODULE-REGEXP  run only the modules whose path matches (grep -E)
#   MODULES-FILE   the split to run (default accuracy/modules.tsv, the dev
#                  split); accuracy/test/modules.tsv is the frozen test
#                  split, scored in aggregate only (its labels.tsv beside
#                  it, RESULTS in accuracy/test/RESULTS.md)
# A modules.tsv row may carry a sixth column, the build settings its
# labels were read under, space-separated: -tags=a,b (passed to go list
# and retrylint) and NAME=value environment settings (GOOS=darwin,
# GOEXPERIMENT=jsonv2).
#
#   ACCURACY_NOSCORE  if set, run and keep the raw results, score nothing
#   ACCURACY_BIN   a retrylint binary to use (default: built from this checkout)
#   ACCURACY_SCORED  what to call that binary in RESULTS.md (its commit)
#   ACCURACY_FAILMODES  if set, also count what the models found at each
#                  check's misses (ACCURACY_BIN built from
#                  analyzers/internal/flow/shadow/describe; aggregate only)
#   ACCURACY_MIRRORS  where the search tool's fetch put repository snapshots
#                  (default /work/.mirror): modules.tsv rows whose source is
#                  fetch:OWNER/NAME are read from OWNER+NAME/repo at the
#                  pinned commit; elsewhere those rows are skipped
#
# Writes accuracy/RESULTS.md (the score) unless a regexp is given.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/accuracy.XXXXXX")}
filter=${2:-}
modfile=${3:-$here/modules.tsv}
modfile=$(cd "$(dirname "$modfile")" && pwd)/$(basename "$modfile")
split=$(dirname "$modfile")
mkdir -p "$out" && out=$(cd "$out" && pwd)
command -v jq >/dev/null || { echo "accuracy: jq is required" >&2; exit 2; }
bin=${ACCURACY_BIN:-$out/retrylint}
# The report names the build it scored (taken when it is built), so that a
# score that did not change still records when it was taken.
if [ -n "${ACCURACY_BIN:-}" ]; then
	scored=${ACCURACY_SCORED:-"the binary $ACCURACY_BIN"}
else
	(cd "$root" && go build -o "$bin" ./cmd/retrylint) || exit 2
	scored="retrylint built from $(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo "an unknown commit")"
	(cd "$root" && git diff --quiet HEAD -- . 2>/dev/null) || scored="$scored with uncommitted changes"
fi
export GOTOOLCHAIN=local GOWORK=off GOFLAGS="-mod=mod -buildvcs=false"
work=$(mktemp -d "${TMPDIR:-/tmp}/accuracy-src.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

slug() { echo "$1" | tr '/@' '__'; }

mirrors=${ACCURACY_MIRRORS:-/work/.mirror}
while IFS=$'\t' read -r mod version pkgs _ source settings <&3; do
	case $mod in '' | '#'* | module) continue ;; esac
	[ -n "$filter" ] && ! echo "$mod" | grep -Eq "$filter" && continue
	base=$out/$(slug "$mod@$version")
	dir=$work/$(slug "$mod@$version")
	case $source in
	fetch:*)
		git=$mirrors/$(echo "${source#fetch:}" | tr / +)/repo
		mkdir -p "$dir"
		if ! git --git-dir="$git" cat-file -e "$version^{commit}" 2>"$base.load"; then
			echo "accuracy: $mod@$version: no snapshot at $git (fetch github:${source#fetch:} first)" >&2
			continue
		fi
		# Snapshots may lack their largest blobs: take the Go files and
		# module files one by one rather than git archive.
		git --git-dir="$git" ls-tree -r --name-only "$version" | grep -E '(\.go|/?go\.(mod|sum))$' |
			while IFS= read -r f; do
				mkdir -p "$dir/$(dirname "$f")"
				git --git-dir="$git" show "$version:$f" >"$dir/$f" 2>>"$base.load"
			done
		;;
	*)
		src=$(go mod download -json "$mod@$version" 2>"$base.load" | jq -r '.Dir // empty')
		if [ -z "$src" ]; then
			echo "accuracy: $mod@$version: download failed (see $base.load)" >&2
			continue
		fi
		cp -R "$src" "$dir" && chmod -R u+w "$dir"
		;;
	esac
	[ -f "$dir/go.mod" ] || (cd "$dir" && go mod init "$mod" >>"$base.load" 2>&1)
	# A module cut out of a monorepo replaces its siblings by relative
	# paths that are not here: take them from the proxy instead.
	# A sibling required only at the zero pseudo-version (it is found
	# through the replace alone) is taken at the module's own version.
	(cd "$dir" && go mod edit -json | jq -r '.Replace[]? | select(.New.Path | startswith(".")) | .Old.Path' |
		while IFS= read -r old; do
			go mod edit -dropreplace="$old"
			req=$(go mod edit -json | jq -r --arg p "$old" '.Require[]? | select(.Path == $p) | .Version')
			case $req in v0.0.0-00010101000000-000000000000)
				go mod download "$old@$version" >/dev/null 2>&1 && go mod edit -require="$old@$version" ;;
			esac
		done) 2>>"$base.load"
	read -r -a pats <<<"${pkgs:-./...}"
	tagflag=() envs=()
	for s in ${settings:-}; do
		case $s in -tags=*) tagflag=("$s") ;; *=*) envs+=("$s") ;; esac
	done
	(cd "$dir" && env "${envs[@]}" go list -e -deps "${tagflag[@]}" "${pats[@]}" >/dev/null 2>>"$base.load") ||
		(cd "$dir" && go mod tidy -e >>"$base.load" 2>&1)
	start=$(date +%s)
	(cd "$dir" && env "${envs[@]}" "$bin" -json "${tagflag[@]}" "${pats[@]}") >"$base.json" 2>"$base.stderr"
	rc=$?
	echo "$dir" >"$base.root"
	n=$(jq '[.[] | .[] | select(type == "array") | length] | add // 0' "$base.json" 2>/dev/null || echo "?")
	echo "accuracy: $mod@$version: exit $rc, $n findings, $(($(date +%s) - start))s" >&2
done 3<"$modfile"

[ -n "${ACCURACY_NOSCORE:-}" ] && { echo "accuracy: raw results in $out (not scored)" >&2; exit 0; }
labels=$split/labels.tsv
# Findings judged after the fact (outside every blind span) count too.
[ -f "$split/labels-posthoc.tsv" ] && labels=$labels,$split/labels-posthoc.tsv
args=(-labels "$labels" -results "$out")
# The frozen test split is read in aggregate only: nobody reads its
# sites. Every other split (the dev split, dev2) is read site by site.
[ "$split" = "$here/test" ] && args+=(-aggregate)
[ -n "${ACCURACY_FAILMODES:-}" ] && args+=(-failmodes)
args+=(-scored "$scored")
[ -z "$filter" ] && args+=(-md "$split/RESULTS.md")
(cd "$root" && go run ./accuracy/score "${args[@]}")
# The dev split's report carries the side-by-side table of every model
# change (kept by hand in sidebyside.md: the test split's numbers come
# from its aggregate report and a judged sample).
if [ -z "$filter" ] && [ "$split" = "$here" ] && [ -f "$here/sidebyside.md" ]; then
	{ echo; cat "$here/sidebyside.md"; } >>"$split/RESULTS.md"
fi
# And the record of root-cause grouping (kept by hand in grouping.md: the
# before and after runs it compares are not both this one).
if [ -z "$filter" ] && [ "$split" = "$here" ] && [ -f "$here/grouping.md" ]; then
	{ echo; cat "$here/grouping.md"; } >>"$split/RESULTS.md"
fi
echo "accuracy: raw results in $out" >&2
