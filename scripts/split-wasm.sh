#!/usr/bin/env bash
# trunk's post_build hook (Trunk.toml). In release builds it splits the page's
# wasm into what the first screen runs and the rest, which the page fetches
# alongside it (see scripts/split-page.mjs). Debug builds stay whole.
set -euo pipefail
[ "${TRUNK_PROFILE:-}" = release ] || exit 0
cd "$(dirname "$0")/.."
# The splitter is a native tool: build it with the ordinary toolchain and
# target dir (where the native tests built it already), not trunk's wasm ones.
env -u RUSTC -u CARGO_TARGET_DIR cargo build --quiet -p wasm-split
exec node scripts/split-page.mjs "$TRUNK_STAGING_DIR" target/debug/wasm-split
