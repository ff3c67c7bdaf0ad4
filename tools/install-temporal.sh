#!/usr/bin/env bash
# Builds the Temporal CLI (its `server start-dev` is the Temporal server the
# tests run) into a cache outside the repository, keyed by version, and
# reuses it when it is there: the build takes minutes and the binary is
# about 250 MB. The SDK's own dev-server helper downloads a prebuilt
# binary, which cannot work on machines that reach only package
# registries; this builds it from the Go module proxy instead.
#
# Prints the binary's path. The tests find it at the same path (or at
# $COGFLOW_TEMPORAL).
set -euo pipefail

version="${TEMPORAL_CLI_VERSION:-v1.5.1}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/cogflow/temporal-$version"
bin="$cache/temporal"
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi
mkdir -p "$cache"
tmp="$(mktemp -d "$cache/.build.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
echo "install-temporal: building the Temporal CLI $version into $cache (a few minutes)" >&2
GOBIN="$tmp" "${GO:-go}" install "github.com/temporalio/cli/cmd/temporal@$version"
mv "$tmp/temporal" "$bin" # a rename: a half-built binary is never at $bin
echo "$bin"
