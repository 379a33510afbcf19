#!/usr/bin/env bash
# Serves the playground at http://127.0.0.1:8080/ (PORT=9000 bash scripts/serve.sh
# for another port), rebuilding on every change.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
wq_setup
port="${PORT:-8080}"
echo
echo "  Workqueue Playground: http://127.0.0.1:${port}/"
echo
exec env RUSTC="$WQ_WASM_RUSTC" CARGO_TARGET_DIR="$WQ_WASM_TARGET_DIR" trunk serve --release --offline --port "$port" --address 127.0.0.1
