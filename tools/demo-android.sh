#!/usr/bin/env bash
# make demo-android: serve the simulated Android phone (cogflow demo
# android) on a free port, run examples/android_add_contact.cog on it with
# the command line the server prints, show the contact the phone got, and
# stop the server with SIGINT, as Ctrl-C does. No device, emulator or adb
# needed.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/cogflow}

log=$(mktemp)
"$BIN" demo android --addr 127.0.0.1:0 2>"$log" &
pid=$!
trap 'kill -INT "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT

for _ in $(seq 100); do
  grep -q -- '--serial' "$log" && break
  if ! kill -0 "$pid" 2>/dev/null; then cat "$log"; exit 1; fi
  sleep 0.1
done
cat "$log"
flags=$(grep -o -- '--adb [^ ]* --serial [^ ]*' "$log") || { echo "demo-android: the server printed no --adb line" >&2; exit 1; }

echo
set +e
# shellcheck disable=SC2086 # $flags is four words
"$BIN" run examples/android_add_contact.cog $flags
code=$?
set -e
sleep 0.5 # the server logs new contacts every 200 ms
echo
echo "what changed on the phone:"
tail -n +3 "$log" | sed 's/^cogflow demo: /  /'
exit "$code"
