#!/usr/bin/env bash
# The page's size: the release wasm and JS in dist/, raw and gzipped, and
# where the wasm weighs (per crate and the top functions). Used by
# scripts/test.sh and scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
size_report() {
  local wasm js
  wasm=$(ls dist/*_bg.wasm 2>/dev/null | head -1); js=$(ls dist/*.js 2>/dev/null | head -1)
  [ -n "$wasm" ] && [ -n "$js" ] || { echo "no build output in dist/"; return 1; }
  printf 'size wasm %s bytes, gzipped %s bytes\n' "$(wc -c <"$wasm")" "$(gzip -9c "$wasm" | wc -c)"
  printf 'size js   %s bytes, gzipped %s bytes\n' "$(wc -c <"$js")" "$(gzip -9c "$js" | wc -c)"
  # Where it weighs: code bytes per crate and the top functions, from the
  # name section of the same build before wasm-opt strips it.
  local named=target/web/wasm32-unknown-unknown/web/workqueue-playground.wasm
  if [ -f "$named" ] && command -v python3 >/dev/null; then
    python3 scripts/wasm_sizes.py "$named" 10 | sed 's/^/size /'
  fi
}

size_report
