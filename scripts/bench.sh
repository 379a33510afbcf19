#!/usr/bin/env bash
# Prints every benchmark figure as `name value` lines: the core natively, the
# core in wasm (headless Chromium), and the page (load time, frame times with
# 10,000 keys at 10x). Machine-dependent: compare figures from one machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
wq_setup >&2
echo "# native"
cargo run --quiet --release -p workqueue-core --bin bench
echo "# soak (native, through the page's reducer: memory after 5 and 60 virtual minutes)"
cargo run --quiet --release --example soak
echo "# wasm (headless Chromium)"
wasm_env cargo test --release -p workqueue-core --target wasm32-unknown-unknown --test wasm_bench -- --nocapture 2>/dev/null | grep '^wasm_' || true
echo "# page"
[ -f dist/index.html ] || wasm_env trunk build --release --offline >&2
echo "# size (the bundle)"
bash scripts/size.sh
node tests/e2e/bench.mjs
