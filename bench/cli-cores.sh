#!/usr/bin/env bash
# `reward-studio score` against pandas on 2, 4, 8 … cores of one machine (taskset), as bench/cli.bench.mjs times it
# (spawn to exit, the answer-check reward): the default (pieces on 3 cores or more, src/cli/pieces.ts) and a whole read
# by one worker (pieces forced off). For a machine with more cores than this one; bench/README.md, session 21.
# With PYTHON_REWARD=1, also the GSM8K verl reward in Python against native CPython (bench/python_baseline.py).
# Usage: bash bench/cli-cores.sh [rows=100000] [rounds=7] [cores…=2 4 8 16]   (after npm install; Python with pandas)
#   NO_BUILD=1: use dist-cli/ as it is (a machine without npm: carry Node, dist-cli/ and node_modules/pyodide there;
#   a Python reward also needs bench/out/python-reward.py, which bench/python.bench.mjs writes).
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
[ "${NO_BUILD:-0}" = 1 ] || node bin/build-cli.mjs
python=${BENCH_PYTHON:-python3}
cli="node dist-cli/reward-studio.mjs score"
pyreward=bench/out/python-reward.py
if [ "${PYTHON_REWARD:-0}" = 1 ] && [ ! -f "$pyreward" ]; then
  echo "no $pyreward: run node bench/python.bench.mjs once (it writes it)" >&2
  exit 1
fi
for c in "${cores[@]}"; do
  [ "$c" -le "$(nproc)" ] || continue
  echo "== $c cores, $rows rollouts"
  taskset -c "0-$((c - 1))" node bench/ab.mjs "$rounds" \
    "pandas $python bench/cli_baseline.py $data" \
    "default $cli $data --reward $reward --json" \
    "whole $cli $data --reward $reward --json ENV:REWARD_STUDIO_MIN_PIECE_BYTES=1000000000000"
  [ "${PYTHON_REWARD:-0}" = 1 ] || continue
  echo "== $c cores, $rows rollouts, Python"
  taskset -c "0-$((c - 1))" node bench/ab.mjs "$rounds" \
    "native $python bench/python_baseline.py $pyreward $data compute_score" \
    "ours $cli $data --reward $pyreward --function compute_score --json"
done
