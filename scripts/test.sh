#!/usr/bin/env bash
# Runs every test: set-up, the house's rules, formatting, clippy, native tests (with the shared
# conformance cases), wasm tests in headless Chromium, the release build with
# its size report, and the end-to-end tests that click through the page.
# Ends with `summary: N passed, M failed` and a non-zero exit on any failure.
#
#   bash scripts/test.sh            everything
#   WQ_SKIP_E2E=1 bash scripts/test.sh   everything but the browser end to end
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
wq_setup || exit 1

# A fresh checkout builds everything once: incremental builds' bookkeeping
# only slows that down.
if [ -n "${CI:-}" ]; then export CARGO_INCREMENTAL=0; fi

passed=0; failed=0; failures=()
stage() {
  local name="$1"; shift
  local t0=$SECONDS
  printf '\n\033[1;34m== %s\033[0m\n' "$name"
  if "$@"; then
    passed=$((passed + 1)); printf '\033[1;32m-- %s passed (%ss)\033[0m\n' "$name" "$((SECONDS - t0))"
  else
    failed=$((failed + 1)); failures+=("$name"); printf '\033[1;31m-- %s FAILED (%ss)\033[0m\n' "$name" "$((SECONDS - t0))"
  fi
}

# The recorded cases live in tests/conformance/; a shared folder beside the
# checkout, where there is one, adds more of the same kinds.
shared=../shared/conformance
if [ -z "${WQ_CONFORMANCE_CASES:-}" ] && [ -d "$shared/cases" ]; then export WQ_CONFORMANCE_CASES="$(cd "$shared/cases" && pwd)"; fi
if [ -z "${WQ_PRIORITY_CASES:-}" ] && [ -d "$shared/priorityqueue/cases" ]; then export WQ_PRIORITY_CASES="$(cd "$shared/priorityqueue/cases" && pwd)"; fi
case_dirs=(tests/conformance/client-go tests/conformance/priority-queue ${WQ_CONFORMANCE_CASES:-} ${WQ_PRIORITY_CASES:-})

# The release build spends minutes on one core (one codegen unit, fat LTO):
# it runs beside the stages that need no browser build, and its stage below
# waits for it. The wasm tests build in a target dir of their own, so
# neither waits on the other's lock.
release_log=$(mktemp)
trap 'rm -f "$release_log" "$release_log.rc"' EXIT
( wasm_env trunk build --release --offline >"$release_log" 2>&1; echo $? >"$release_log.rc" ) &
release_pid=$!
release_build() {
  wait "$release_pid"
  cat "$release_log"
  [ "$(cat "$release_log.rc" 2>/dev/null)" = 0 ]
}

stage "house (files of at most 700 lines, no import circles)" python3 scripts/house.py .
stage "surface (pub only where another crate names it)" python3 scripts/surface.py .
stage "format" cargo fmt --all -- --check
stage "clippy" cargo clippy --quiet --workspace --all-targets -- -D warnings
# The embed's own entry is built with a feature of its own (index.html).
stage "clippy (the embed's entry)" cargo clippy --quiet -p workqueue-playground --lib --bins --features built-in-only -- -D warnings
stage "native tests" cargo test --workspace
# The embed's entry reads tagged objects with their tag first only.
stage "native tests (the core as the embed's entry reads)" cargo test --quiet -p workqueue-core --features tag-first-only --lib
# In the dev profile: the core's debug assertions check its invariants on
# every case, and the native tests have built it already.
stage "conformance runner" cargo run --quiet -p workqueue-check --bin conformance -- "${case_dirs[@]}"
wasm_tests() { WQ_WASM_TARGET_DIR="$WQ_ROOT/target/web-test" wasm_env cargo test --target wasm32-unknown-unknown "$@"; }
stage "wasm tests (core, headless Chromium)" wasm_tests -p workqueue-core --test wasm
stage "wasm tests (app components, headless Chromium)" wasm_tests -p workqueue-playground --test wasm_app
if stage "release build (begun with the first stage)" release_build; then
  stage "size report" bash scripts/size.sh
  if [ -z "${WQ_SKIP_E2E:-}" ]; then
    stage "end-to-end (Playwright, Chromium)" bash scripts/e2e.sh
  fi
fi

echo
[ ${#failures[@]} -gt 0 ] && printf 'failed stages: %s\n' "${failures[*]}"
echo "summary: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
