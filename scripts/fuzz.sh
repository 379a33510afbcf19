#!/usr/bin/env bash
# Fuzzes the validation gate, the driver, managers and their replayed tapes
# (a tenth as many), the
# scenario decoder, the share-link decoder, the lesson reader and the Go reader (and the
# Go export from arbitrary strings, a hundredth as many), with a million generated
# cases each (WQ_FUZZ_CASES to change), in an optimised build that keeps
# overflow checks and debug assertions on, so any wrap is a failure.
# Prints "fuzz ...: N cases ran, F failed" per target.
#
#   bash scripts/fuzz.sh                     a million cases per target
#   WQ_FUZZ_CASES=1 WQ_FUZZ_FROM=N bash scripts/fuzz.sh   replay case N
set -euo pipefail
cd "$(dirname "$0")/.."
export WQ_FUZZ_CASES="${WQ_FUZZ_CASES:-1000000}"
export CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true
export CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true
# A separate target dir: these flags must not evict the ordinary release build.
export CARGO_TARGET_DIR="$(pwd)/target/fuzz"
run() { cargo test --quiet --release "$@" -- --nocapture --test-threads=1 2>&1 | grep -E '^fuzz|panicked|FAILED' || true; }
t0=$SECONDS
run -p workqueue-core --test fuzz arbitrary_scenarios
run -p workqueue-core --test fuzz the_scenario_decoder
run -p workqueue-core --test fuzz arbitrary_managers_never
# Links' tapes replayed frame by frame: no frame over 50 ms of wall clock here.
WQ_FUZZ_WALL_MS=50 run -p workqueue-core --test fuzz arbitrary_manager_tapes
run -p workqueue-playground --lib the_link_decoder_survives_garbage
# Whole manager links opened as the page opens them (a thousandth as many).
WQ_FUZZ_WALL_MS=50 run -p workqueue-playground --lib arbitrary_manager_links
run -p workqueue-lessons --test fuzz the_lesson_reader
run -p workqueue-go --test fuzz the_go_reader
# The Go export from arbitrary strings (a hundredth as many: each is parsed and read back).
WQ_FUZZ_CASES=$((WQ_FUZZ_CASES / 100 + 1)) run -p workqueue-go --test export_hostile no_string_becomes_code
echo "fuzzing took $((SECONDS - t0)) s"
