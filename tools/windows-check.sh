#!/usr/bin/env bash
# Compile-check the whole module for Windows, so that *_windows.go files
# (the uia driver's COM, input and hook layers) can never rot on machines
# that only run Linux: `go vet` of every package, and every package that
# has tests compiled into a test binary (nothing is run).
#
#   tools/windows-check.sh            # GOARCH=amd64
#   GOARCH=386 tools/windows-check.sh
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}
export GOOS=windows
export GOARCH=${GOARCH:-amd64}
echo "windows-check: go vet ./... (GOOS=$GOOS GOARCH=$GOARCH)"
"$GO" vet ./...

# Every test binary is compiled and linked, in parallel, and "run" with
# true: nothing Windows-only executes here.
echo "windows-check: go test -c of every package with tests"
"$GO" test -count=1 -exec true ./... >/dev/null
echo "windows-check: ok"
