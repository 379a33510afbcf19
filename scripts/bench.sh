#!/usr/bin/env bash
# Prints every benchmark figure as `name value` lines: the core natively, the
# core in wasm (headless Chromium), and the page (load time, frame times with
# 10,000 keys at 10x). Machine-dependent: compare figures from one machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
wq_setup >&2
echo "# native"
native=$(cargo run --quiet --release -p workqueue-check --bin bench)
echo "$native"
echo "# the Go reader refusing hostile files (ms, release)"
cargo run --quiet --release -p workqueue-go --example hostile_bench
echo "# soak (native, through the page's reducer: memory after 5 and 60 virtual minutes, bytes per key)"
cargo run --quiet --release --example soak
echo "# wasm (headless Chromium)"
wasm=$(wasm_env cargo test --release -p workqueue-check --target wasm32-unknown-unknown --test wasm_bench -- --nocapture 2>/dev/null | grep '^wasm_' || true)
echo "$wasm"
# The same figures side by side: wasm over native (the cold path's aim: 2x).
echo "# wasm beside native: name native wasm wasm/native"
printf '%s\n%s\n' "$native" "$wasm" | awk '
  /^wasm_/ { sub(/^wasm_/, "", $1); w[$1] = $2; next }
  { n[$1] = $2; order[++k] = $1 }
  END { for (i = 1; i <= k; i++) { f = order[i]; if (f in w && n[f] > 0 && f !~ /_over_/) printf "side_by_side %s %s %s %.2fx\n", f, n[f], w[f], w[f] / n[f] } }'
echo "# page"
[ -f dist/index.html ] || wasm_env trunk build --release --offline >&2
echo "# size (the bundle)"
bash scripts/size.sh
node tests/e2e/bench.mjs
# what a blog reader on a slow link waits for: an embedded lesson's first words
node tests/e2e/load.mjs
# Lighthouse (installed here only: the test command never needs it): every
# lesson's workshop page (desktop) and every built-in step embedded (mobile)
lh=tests/lighthouse
if ! { [ -f "$lh/node_modules/.wq-stamp" ] && cmp -s "$lh/node_modules/.wq-stamp" "$lh/package-lock.json"; }; then
  (cd "$lh" && npm ci --silent --no-audit --no-fund) >&2 && cp "$lh/package-lock.json" "$lh/node_modules/.wq-stamp"
fi
node "$lh/run.mjs" ${WQ_LIGHTHOUSE:-}
