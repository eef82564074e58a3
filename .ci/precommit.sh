#!/usr/bin/env bash
# pre-commit integration: .pre-commit-hooks.yaml proven with the real tool.
#
# Run it:
#   .ci/precommit.sh [ensure]   install pre-commit (Debian package) if it is missing
#   .ci/precommit.sh test       ensure, then run the pre-commit tests
#                               (go test ./plugin -run TestPrecommit)
# Or source it (from bash) and call retrylint_precommit_ensure /
# retrylint_precommit_test [go test flags].
#
# The tests run `pre-commit try-repo`, `pre-commit run` and `git commit`
# against clones of this repository, so they test what is COMMITTED (HEAD),
# not the working tree. PRE_COMMIT_HOME is a fresh temporary directory;
# GOMODCACHE is passed through so pre-commit's `go install ./...` for the
# hook environment finds modules in the usual module cache.

# shellcheck source=/dev/null
. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"

retrylint_precommit_ensure() {
	if command -v pre-commit >/dev/null 2>&1; then
		return 0
	fi
	retrylint_apt_install precommit.sh pre-commit || return 1
	command -v pre-commit >/dev/null
}

retrylint_precommit_test() {
	local root
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || return
	retrylint_precommit_ensure || return
	(cd "$root" && go test -count=1 -run '^TestPrecommit' "$@" ./plugin/)
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -euo pipefail
	case ${1:-ensure} in
	ensure) retrylint_precommit_ensure ;;
	test) shift; retrylint_precommit_test "$@" ;;
	*) echo "usage: $0 [ensure|test [go test flags]]" >&2; exit 2 ;;
	esac
fi
