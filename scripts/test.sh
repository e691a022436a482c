#!/usr/bin/env bash
# Runs every test of the project: Rust (unit, integration, doc), the web
# client's unit tests, and the browser tests in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test"
cargo test --workspace --locked

if [ -f package.json ]; then
  if [ ! -d node_modules ]; then
    echo "node_modules is missing: run 'npm ci' first" >&2
    exit 1
  fi
  echo "== web unit tests"
  npm run --silent test:web
  echo "== browser tests"
  npm run --silent test:browser
fi
