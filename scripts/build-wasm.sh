#!/usr/bin/env bash
# Builds the rules and the engine for the browser (crates/fanorona-wasm)
# into web/engine/fanorona.wasm, which the server embeds like the other
# files of web/, and writes its content hash into web/js/engine-file.js,
# which names the file to load. Both are committed, so that
# `cargo run --release` needs no WebAssembly target; run this after
# changing the rules or the engine, and commit what it writes.
#
# --check builds the file again and fails unless the committed files are
# exactly that build (the test command runs it: the engine the pages load
# is the engine of this source).
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
case "${1:-}" in
  --check) check=true ;;
  "") ;;
  *) echo "usage: scripts/build-wasm.sh [--check]" >&2; exit 2 ;;
esac

target=wasm32-unknown-unknown
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx "$target"; then
  echo "== rustup target add $target"
  rustup target add "$target"
fi
cargo build --quiet --locked --profile wasm -p fanorona-wasm --target "$target"
built="${CARGO_TARGET_DIR:-target}/$target/wasm/fanorona_wasm.wasm"
hash=$(sha256sum "$built" | cut -c1-16)
module="// Written by scripts/build-wasm.sh: the engine's file, named by its
// content so that it can be cached for good.
export const ENGINE_FILE = '/engine/fanorona.wasm?v=$hash';"

if [ "$check" = true ]; then
  if ! cmp -s "$built" web/engine/fanorona.wasm ||
    [ "$module" != "$(cat web/js/engine-file.js 2>/dev/null)" ]; then
    echo "web/engine/fanorona.wasm is not the build of this source:" >&2
    echo "run scripts/build-wasm.sh and commit web/engine/ and web/js/engine-file.js" >&2
    exit 1
  fi
  echo "web/engine/fanorona.wasm is the build of this source ($hash, $(stat -c %s "$built") bytes)"
else
  mkdir -p web/engine
  cp "$built" web/engine/fanorona.wasm
  printf '%s\n' "$module" > web/js/engine-file.js
  echo "web/engine/fanorona.wasm: $hash, $(stat -c %s "$built") bytes"
fi
