#!/usr/bin/env bash
# Installs the system packages cogflow's tests and demo need, when they are
# missing: Debian's graphviz (the graph test renders DOT with `dot`),
# chromium (the browser driver's tests run a real headless Chromium; the
# driver never downloads one) and adb (the Android tests also run the real
# adb client against the simulated device server). Runs apt-get only
# as root; otherwise it names what is missing and fails, so that a test
# never silently skips.
set -euo pipefail

need=()
command -v dot >/dev/null 2>&1 || need+=(graphviz)
# The browser driver looks for $COGFLOW_CHROME, /usr/bin/chromium, then
# chromium, chromium-browser and google-chrome on PATH.
if [ -z "${COGFLOW_CHROME:-}" ] && ! command -v chromium >/dev/null 2>&1 &&
  ! command -v chromium-browser >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1; then
  need+=(chromium fonts-liberation)
fi
command -v adb >/dev/null 2>&1 || need+=(adb)
# The VS Code extension's grammar tests and package (make test-editors,
# make vsix) run on Node.js and npm.
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
# The JUnit report's test validates against the checked-in schema with xmllint.
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
# The Neovim client's acceptance test (cmd/cogflow/lsp_nvim_test.go) runs
# Debian's headless nvim (0.7 or later) against `cogflow lsp`.
command -v nvim >/dev/null 2>&1 || need+=(neovim)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing ${need[*]}; install them (apt-get install ${need[*]}) or run as root" >&2
  exit 1
fi
echo "install-deps: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
