#!/bin/sh
# Runs every fuzz target of the project, one after the other, for FUZZTIME
# each (default 30s); `go test -fuzz` takes one target of one package at a
# time. Every target runs even when one fails; the script then lists the
# failed ones and exits 1. The input that made a target fail is kept under
# its package's testdata/fuzz/<target>/, where `go test` replays it from
# then on (commit it with the fix).
#
#   FUZZTIME=5m tools/fuzz.sh
#   FUZZ_PKGS=./runtime/config tools/fuzz.sh     # one package only
set -eu
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
PKGS=${FUZZ_PKGS:-./...}

# `go test -list` prints each package's matching tests, then "ok <pkg>".
list=$("$GO" test -list '^Fuzz' $PKGS | awk '
	/^Fuzz/ { names = names " " $1; next }
	/^ok/   { if (names != "") print $2 names; names = "" }')
if [ -z "$list" ]; then
	echo "fuzz: no fuzz targets in $PKGS" >&2
	exit 1
fi
failed=$(echo "$list" | while read -r pkg names; do
	for name in $names; do
		echo "== $pkg $name ($FUZZTIME)" >&2
		if ! "$GO" test "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime "$FUZZTIME" -fuzzminimizetime 5s >&2; then
			echo "$pkg $name"
		fi
	done
done)
if [ -n "$failed" ]; then
	echo "fuzz: these targets failed (their inputs are under testdata/fuzz):" >&2
	echo "$failed" >&2
	exit 1
fi
echo "fuzz: every target ran $FUZZTIME without a failure" >&2
