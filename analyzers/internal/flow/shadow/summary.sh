#!/usr/bin/env bash
# summary.sh DIR: totals of the shadow command's diagnostics over the
# SLUG.json files of DIR (written by accuracy/run.sh with
# ACCURACY_BIN=shadow): one count per message, nothing per site.
set -euo pipefail
dir=${1:?usage: summary.sh DIR}
# A package and its test variant report the same site twice: count each
# position once.
cat "$dir"/*.json 2>/dev/null | jq -r '.[] | .[]? | select(type == "array") | .[] | "\(.posn)\t\(.message)"' |
	sort -u | cut -f2 | sort | uniq -c | sort -rn
