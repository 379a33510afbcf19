#!/usr/bin/env bash
# The page's size: the release wasm (both parts), JS and HTML in dist/, raw
# and gzipped, and where the wasm weighs (per crate and the top functions).
# Fails if the first screen is over its budget. Used by scripts/test.sh and
# scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# Issue 12: the release page's first screen at most 250 KB gzipped.
WQ_FIRST_SCREEN_BUDGET=250000
gz() { gzip -9c "$1" | wc -c; }
size_report() {
  local wasm lazy js html
  wasm=$(ls dist/*_bg.wasm 2>/dev/null | head -1); js=$(ls dist/*.js 2>/dev/null | head -1)
  lazy=$(ls dist/*_lazy.wasm 2>/dev/null | head -1); html=dist/index.html
  [ -n "$wasm" ] && [ -n "$js" ] || { echo "no build output in dist/"; return 1; }
  printf 'size wasm %s bytes, gzipped %s bytes (what the first screen runs)\n' "$(wc -c <"$wasm")" "$(gz "$wasm")"
  printf 'size js   %s bytes, gzipped %s bytes\n' "$(wc -c <"$js")" "$(gz "$js")"
  printf 'size html %s bytes, gzipped %s bytes (with the split loader)\n' "$(wc -c <"$html")" "$(gz "$html")"
  local first=$(($(gz "$wasm") + $(gz "$js") + $(gz "$html")))
  printf 'size first screen (wasm + js + html) gzipped %s bytes, budget %s\n' "$first" "$WQ_FIRST_SCREEN_BUDGET"
  if [ -n "$lazy" ]; then
    printf 'size rest of the wasm %s bytes, gzipped %s bytes (fetched alongside, see crates/wasm-split)\n' "$(wc -c <"$lazy")" "$(gz "$lazy")"
    printf 'size whole page gzipped %s bytes\n' "$((first + $(gz "$lazy")))"
  fi
  # Where it weighs: code bytes per crate and the top functions, from the
  # name section of the same build before wasm-opt strips it.
  local named=target/web/wasm32-unknown-unknown/web/workqueue-playground.wasm
  if [ -f "$named" ] && command -v python3 >/dev/null; then
    python3 scripts/wasm_sizes.py "$named" 10 | sed 's/^/size /'
  fi
  [ "$first" -le "$WQ_FIRST_SCREEN_BUDGET" ] || { echo "size: the first screen is over its budget"; return 1; }
}

size_report
