#!/usr/bin/env bash
# `reward-studio score` against pandas on 2, 4, 8 … cores of one machine (taskset), as bench/cli.bench.mjs times it
# (spawn to exit, the answer-check reward): the default (pieces on 3 cores or more, src/cli/pieces.ts) and a whole read
# by one worker (pieces forced off). For a machine with more cores than this one; bench/README.md, session 21.
# Usage: bash bench/cli-cores.sh [rows=100000] [rounds=7] [cores…=2 4 8 16]   (after npm install; Python with pandas)
set -euo pipefail
rows=${1:-100000}
rounds=${2:-7}
shift $(($# > 2 ? 2 : $#))
cores=("${@:-2 4 8 16}")
read -r -a cores <<<"${cores[*]}"
mkdir -p bench/out
data=bench/out/cli-$rows.jsonl
[ -f "$data" ] || node --input-type=module -e "const {writeRollouts}=await import('./bench/rollouts.mjs'); writeRollouts('$data', $rows);"
reward=bench/out/cli-reward.js
[ -f "$reward" ] || printf '%s\n' 'export default function reward(t) {' \
  '  const m = /A:\s*(-?[\d,]+(?:\.\d+)?)\s*$/.exec(t.completion);' \
  "  return m !== null && Number(m[1].replace(/,/g, '')) === Number(t.groundTruth) ? 1 : 0;" '}' >"$reward"
node bin/build-cli.mjs
python=${BENCH_PYTHON:-python3}
for c in "${cores[@]}"; do
  [ "$c" -le "$(nproc)" ] || continue
  echo "== $c cores, $rows rollouts"
  taskset -c "0-$((c - 1))" node bench/ab.mjs "$rounds" \
    "pandas $python bench/cli_baseline.py $data" \
    "default node bin/reward-studio.mjs score $data --reward $reward --json" \
    "whole node bin/reward-studio.mjs score $data --reward $reward --json ENV:REWARD_STUDIO_MIN_PIECE_BYTES=1000000000000"
done
