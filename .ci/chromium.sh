#!/usr/bin/env bash
# Headless Chromium for the inventory's HTML test
# (internal/inventory: TestHTMLInBrowser loads the page in a real browser).
#
# Run it:
#   .ci/chromium.sh [ensure]   install chromium-headless-shell (Debian package)
#                              if neither it nor chromium is on PATH
#   .ci/chromium.sh test       ensure, then run the browser test
# Or source it (from bash) and call retrylint_chromium_ensure /
# retrylint_chromium_test [go test flags].
#
# Without a browser the test skips, saying so; with CI=true it fails.

# shellcheck source=/dev/null
. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"

retrylint_chromium_ensure() {
	if command -v chromium-headless-shell >/dev/null 2>&1 || command -v chromium >/dev/null 2>&1; then
		return 0
	fi
	retrylint_apt_install chromium.sh chromium-headless-shell || return 1
	command -v chromium-headless-shell >/dev/null
}

retrylint_chromium_test() {
	local root
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || return
	retrylint_chromium_ensure || return
	(cd "$root" && go test -count=1 -run '^TestHTMLInBrowser' "$@" ./internal/inventory/)
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -euo pipefail
	case ${1:-ensure} in
	ensure) retrylint_chromium_ensure ;;
	test) shift; retrylint_chromium_test "$@" ;;
	*) echo "usage: $0 [ensure|test [go test flags]]" >&2; exit 2 ;;
	esac
fi
