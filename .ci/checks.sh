#!/usr/bin/env bash
# The checks of .ci/run after the tests: format, vet, length and complexity
# limits, the budget benchmark module, the example module, and the README's
# main job and inventory commands, verbatim. .ci/run calls it after the cold
# test run; run it by hand before every commit (about a minute, warm).
set -euo pipefail
cd "$(dirname "$0")/.."
start=${RETRYLINT_CI_START:-$(date +%s)}
step() { printf '\n== %s (%ss)\n' "$*" "$(($(date +%s) - start))"; }

step "format and vet"
unformatted=$(git ls-files '*.go' | grep -v '/testdata/' | xargs gofmt -l)
if [ -n "$unformatted" ]; then
	echo "not gofmt-clean:"; echo "$unformatted"; exit 1
fi
go vet ./...
go -C budget vet ./...
go -C budget/tools vet ./...
go -C budget/bench vet ./...

step "length and complexity limits (analyzers/, budget/: 80 lines, cyclomatic 30)"
.ci/complexity.sh

step "budget benchmark module and example module"
go -C budget/bench test ./...
go -C examples/ledgerclient build ./...
go -C examples/ledgerclient vet ./...

step "main job: the README's command, verbatim (retrylint over the example module)"
main_cmd='go build -o bin/retrylint ./cmd/retrylint && cd examples/ledgerclient && ../../bin/retrylint ./...'
grep -qxF "$main_cmd" README.md || { echo "README.md no longer holds: $main_cmd (update .ci/run)"; exit 1; }
set +e
(go build -o bin/retrylint ./cmd/retrylint && cd examples/ledgerclient && ../../bin/retrylint ./...) > /tmp/retrylint-example.txt 2>&1
rc=$?
set -e
cat /tmp/retrylint-example.txt
if [ "$rc" != 3 ]; then echo "expected exit 3 (findings), got $rc"; exit 1; fi
for a in retrybudget retryjitter retrysleep retryidempotency retrydeadline; do
	grep -q "($a)" /tmp/retrylint-example.txt || { echo "missing $a finding"; exit 1; }
done

step "inventory: the README's command, verbatim (every retry of the example module, exit 0)"
inv_cmd='go build -o bin/retrylint ./cmd/retrylint && cd examples/ledgerclient && ../../bin/retrylint -inventory ./...'
grep -qxF "$inv_cmd" README.md || { echo "README.md no longer holds: $inv_cmd (update .ci/run)"; exit 1; }
(go build -o bin/retrylint ./cmd/retrylint && cd examples/ledgerclient && ../../bin/retrylint -inventory ./...) > /tmp/retrylint-inventory.md
cat /tmp/retrylint-inventory.md
grep -q '^| 1 | ' /tmp/retrylint-inventory.md || { echo "the inventory lists no retry site"; exit 1; }

step "done"
