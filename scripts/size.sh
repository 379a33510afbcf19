#!/usr/bin/env bash
# The page's size: the release wasm, JS and HTML in dist/, raw and gzipped,
# and where the wasm weighs (per crate and the top functions). A report, not a
# gate: what a reader waits for is measured by tests/e2e/load.mjs (the first
# narration of an embedded lesson on a slow link). Used by scripts/test.sh and
# scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
gz() { gzip -9c "$1" | wc -c; }
size_report() {
  local wasm js css html=dist/index.html
  wasm=$(ls dist/workqueue-playground-*_bg.wasm 2>/dev/null | head -1)
  js=$(ls dist/workqueue-playground-*.js 2>/dev/null | head -1)
  # (The stylesheet is inline in index.html: no file, unless one comes back.)
  css=$(ls dist/*.css 2>/dev/null | head -1 || true)
  [ -n "$wasm" ] && [ -n "$js" ] || { echo "no build output in dist/"; return 1; }
  # The page is one module and an embed another (the embed's layout only,
  # src/embed.rs); the lesson worker is the only other, loaded only for a
  # trainer's own lesson file or a goal check (built-in lessons come read
  # at build time).
  local n; n=$(ls dist/*.wasm | grep -vc -e '/lesson-worker_bg.wasm$' -e '/workqueue-embed_bg.wasm$' || true)
  [ "$n" -eq 1 ] || { echo "size: the page must be one wasm module, dist/ has $n besides the embed's and the lesson worker's"; return 1; }
  if [ -f dist/lesson-worker_bg.wasm ]; then
    printf 'size lesson worker (a trainer file, a goal check) wasm %s bytes, gzipped %s bytes; js gzipped %s bytes\n' \
      "$(wc -c <dist/lesson-worker_bg.wasm)" "$(gz dist/lesson-worker_bg.wasm)" "$(gz dist/lesson-worker.js)"
  fi
  [ -f dist/workqueue-embed_bg.wasm ] || { echo "size: no embed module (workqueue-embed) in dist/"; return 1; }
  printf 'size embed wasm %s bytes, gzipped %s bytes; js gzipped %s bytes\n' \
    "$(wc -c <dist/workqueue-embed_bg.wasm)" "$(gz dist/workqueue-embed_bg.wasm)" "$(gz dist/workqueue-embed.js)"
  printf 'size wasm %s bytes, gzipped %s bytes\n' "$(wc -c <"$wasm")" "$(gz "$wasm")"
  printf 'size js   %s bytes, gzipped %s bytes\n' "$(wc -c <"$js")" "$(gz "$js")"
  printf 'size html %s bytes, gzipped %s bytes\n' "$(wc -c <"$html")" "$(gz "$html")"
  local page=$(($(gz "$wasm") + $(gz "$js") + $(gz "$html")))
  if [ -n "$css" ]; then
    printf 'size css  %s bytes, gzipped %s bytes\n' "$(wc -c <"$css")" "$(gz "$css")"
    page=$((page + $(gz "$css")))
  fi
  printf 'size page (wasm + js + html, the stylesheet inline) gzipped %s bytes\n' "$page"
  # Where it weighs: code bytes per crate and the top functions, from the
  # name section of the same build before wasm-opt strips it.
  local named=target/web/wasm32-unknown-unknown/web/workqueue-playground.wasm
  if [ -f "$named" ] && command -v python3 >/dev/null; then
    python3 scripts/wasm_sizes.py "$named" 10 | sed 's/^/size /'
  fi
}

size_report
