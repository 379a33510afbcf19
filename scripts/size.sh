#!/usr/bin/env bash
# The page's size: the release wasm, JS and HTML in dist/, raw and gzipped,
# and where the wasm weighs (per crate and the top functions). Fails if the
# page is over its budget. Used by scripts/test.sh and scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# Issue 18: the whole page (one wasm module, its JS, HTML and CSS) at most 420 KB gzipped.
WQ_PAGE_BUDGET=420000
gz() { gzip -9c "$1" | wc -c; }
size_report() {
  local wasm js css html=dist/index.html
  wasm=$(ls dist/workqueue-playground-*_bg.wasm 2>/dev/null | head -1)
  js=$(ls dist/workqueue-playground-*.js 2>/dev/null | head -1)
  css=$(ls dist/*.css 2>/dev/null | head -1)
  [ -n "$wasm" ] && [ -n "$js" ] || { echo "no build output in dist/"; return 1; }
  # The page is one module; the lesson worker is the only other, loaded when
  # a lesson opens (reported, not part of the first load).
  local n; n=$(ls dist/*.wasm | grep -vc '/lesson-worker_bg.wasm$' || true)
  [ "$n" -eq 1 ] || { echo "size: the page must be one wasm module, dist/ has $n besides the lesson worker"; return 1; }
  if [ -f dist/lesson-worker_bg.wasm ]; then
    printf 'size lesson worker (loaded when a lesson opens) wasm %s bytes, gzipped %s bytes; js gzipped %s bytes\n' \
      "$(wc -c <dist/lesson-worker_bg.wasm)" "$(gz dist/lesson-worker_bg.wasm)" "$(gz dist/lesson-worker.js)"
  fi
  printf 'size wasm %s bytes, gzipped %s bytes\n' "$(wc -c <"$wasm")" "$(gz "$wasm")"
  printf 'size js   %s bytes, gzipped %s bytes\n' "$(wc -c <"$js")" "$(gz "$js")"
  printf 'size html %s bytes, gzipped %s bytes\n' "$(wc -c <"$html")" "$(gz "$html")"
  local page=$(($(gz "$wasm") + $(gz "$js") + $(gz "$html")))
  if [ -n "$css" ]; then
    printf 'size css  %s bytes, gzipped %s bytes\n' "$(wc -c <"$css")" "$(gz "$css")"
    page=$((page + $(gz "$css")))
  fi
  printf 'size page (wasm + js + html + css) gzipped %s bytes, budget %s\n' "$page" "$WQ_PAGE_BUDGET"
  # Where it weighs: code bytes per crate and the top functions, from the
  # name section of the same build before wasm-opt strips it.
  local named=target/web/wasm32-unknown-unknown/web/workqueue-playground.wasm
  if [ -f "$named" ] && command -v python3 >/dev/null; then
    python3 scripts/wasm_sizes.py "$named" 10 | sed 's/^/size /'
  fi
  [ "$page" -le "$WQ_PAGE_BUDGET" ] || { echo "size: the page is over its budget"; return 1; }
}

size_report
