#!/usr/bin/env bash
# trunk's post-build hook (Trunk.toml): the built-in lessons read and answered
# at build time, written beside their files as lessons/<id>.json (the lesson
# worker's own reply). A page that opens a built-in lesson reads that file and
# never starts the worker, so a visit downloads the core once.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${TRUNK_STAGING_DIR:?run by trunk as its post-build hook}/lessons"
# A native tool: the wasm build's compiler and target folder are not its own.
# The dev profile: the test command has built it already, the answers are
# the same, and a release build with LTO would add a minute to every build.
env -u RUSTC -u CARGO_TARGET_DIR -u CARGO_BUILD_TARGET \
  cargo run --quiet -p wqsim -- lesson --views "$out" lessons/*.md >/dev/null
# Each lesson's and step's title and first paragraph, into the page itself:
# an embed's first paint shows them before any wasm (scripts/first_words.py).
python3 scripts/first_words.py "$TRUNK_STAGING_DIR"
