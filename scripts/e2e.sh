#!/usr/bin/env bash
# The end-to-end tests (Playwright, Chromium): a pool, then a tail.
#
#   pool   every file but the timed ones, WQ_E2E_LANES at a time (2 by
#          default, as many as the machine has cores: with 3 the room's
#          walk once saw a lane drawn late and counted it as a shift), the
#          longest first so no lane is left with a long file at the end
#   tail   the files that measure time (frame gaps, frames of a drain,
#          main-thread seconds, a follower's lag), alone once the pool is
#          done, so nothing else on the machine's two cores is counted
#          against them
#
# Each file's report is printed when the pool ends; the exit status is
# non-zero if any test failed. `bash scripts/e2e.sh room.test.mjs` runs
# named files only, one after another.
set -uo pipefail
cd "$(dirname "$0")/../tests/e2e"
run() { node --test --test-concurrency=1 "$@"; }
if [ $# -gt 0 ]; then run "$@"; exit; fi

# Longest first (seconds on a quiet machine: room 340, embed 150, the rest
# under 60 each); files not named here follow in name order.
first=(room.test.mjs embed.test.mjs import.test.mjs workshop.test.mjs stage.test.mjs share.test.mjs)
timed=(config.test.mjs hostile.test.mjs living.test.mjs manager.test.mjs post.test.mjs presenter.test.mjs)
pool=()
for f in "${first[@]}"; do [ -f "$f" ] && pool+=("$f"); done
for f in ./*.test.mjs; do
  f=${f#./}
  case " ${first[*]} ${timed[*]} " in *" $f "*) ;; *) pool+=("$f") ;; esac
done

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
export -f run
printf '%s\n' "${pool[@]}" | xargs -P "${WQ_E2E_LANES:-2}" -I{} \
  bash -c 'run "$1" >"$2/$1.log" 2>&1; echo $? >"$2/$1.rc"' _ {} "$logs"
status=0
for f in "${pool[@]}"; do
  echo "# $f"; cat "$logs/$f.log"
  [ "$(cat "$logs/$f.rc" 2>/dev/null)" = 0 ] || { status=1; echo "# $f FAILED"; }
done
echo "# alone: ${timed[*]}"
run "${timed[@]}" || status=1
exit $status
