#!/usr/bin/env bash
# Runs every test of the project: Rust (unit, integration, doc), the
# check that the browser's engine is the build of the source, the web
# client's unit tests, and the browser tests in Chromium. On a fresh clone
# it first installs what the web tests need: the npm packages (`npm ci`,
# when node_modules is missing or older than package-lock.json) and
# Debian's Chromium (when it is missing and this runs as root; otherwise it
# says the one command to run).
set -euo pipefail
cd "$(dirname "$0")/.."

# The npm packages are current when npm's own record of what it installed
# is there and no older than the lock file.
npm_packages_current() {
  [ -f node_modules/.package-lock.json ] &&
    [ ! package-lock.json -nt node_modules/.package-lock.json ]
}

install_web_test_tools() {
  if ! command -v npm >/dev/null 2>&1; then
    echo "npm is missing: install Node.js 20 or later (Debian: apt-get install nodejs npm)" >&2
    exit 1
  fi
  if ! npm_packages_current; then
    echo "== npm ci (node_modules is missing or older than package-lock.json)"
    npm ci --no-audit --no-fund
  fi
  if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "== apt-get install chromium (the browser tests need Debian's Chromium)"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
      echo "Chromium is missing: run 'sudo apt-get install chromium', then this script again" >&2
      exit 1
    fi
  fi
}

if [ -f package.json ]; then
  install_web_test_tools
fi

echo "== cargo test"
cargo test --workspace --locked

# The pages load the engine from web/engine/fanorona.wasm: it must be the
# build of this source (adds the wasm32-unknown-unknown target if needed).
echo "== the engine for the browser"
bash scripts/build-wasm.sh --check

if [ -f package.json ]; then
  echo "== web unit tests"
  npm run --silent test:web
  echo "== browser tests"
  npm run --silent test:browser
fi
