#!/usr/bin/env bash
# The end-to-end tests (Playwright, Chromium), in two lanes and a tail:
#
#   lane 1  the room's walks: mostly waiting on a clicker's pace, little CPU
#   lane 2  every other file, one after another
#   tail    the files that measure time (frame gaps, main-thread seconds,
#           a follower's lag), alone once both lanes are done, so nothing
#           else on the machine's two cores is counted against them
#
# Each lane prints its report when it ends; the exit status is non-zero if
# any test failed. `bash scripts/e2e.sh room.test.mjs` runs named files only,
# one after another.
set -uo pipefail
cd "$(dirname "$0")/../tests/e2e"
run() { node --test --test-concurrency=1 "$@"; }
if [ $# -gt 0 ]; then run "$@"; exit; fi

lane1=(room.test.mjs)
timed=(config.test.mjs hostile.test.mjs manager.test.mjs post.test.mjs presenter.test.mjs)
lane2=()
for f in ./*.test.mjs; do
  f=${f#./}
  case " ${lane1[*]} ${timed[*]} " in *" $f "*) ;; *) lane2+=("$f") ;; esac
done

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
run "${lane1[@]}" >"$logs/1" 2>&1 &
one=$!
run "${lane2[@]}" >"$logs/2" 2>&1
two=$?
wait "$one"
one=$?
echo "# lane 1: ${lane1[*]}"; cat "$logs/1"
echo "# lane 2: ${lane2[*]}"; cat "$logs/2"
echo "# alone: ${timed[*]}"
run "${timed[@]}"
tail=$?
[ "$one" -eq 0 ] && [ "$two" -eq 0 ] && [ "$tail" -eq 0 ]
