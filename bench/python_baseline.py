"""Native CPython baseline for bench/python.bench.mjs: the same Python reward file, called the way verl's
NaiveRewardManager calls it (`compute_score(data_source=, solution_str=, ground_truth=, extra_info=)`, keyword
arguments, once per row), over the same JSONL, in a plain loop.

Usage: python3 bench/python_baseline.py <reward.py> <data.jsonl> [function]
Prints one JSON object: rows, the sum of the scores (a cross-check), and the times in ms of reading the file
(json.loads per line), of the scoring loop alone (wall clock, and CPU time: steadier on a loaded machine), and of the whole script (interpreter start-up excluded: the bench
times the process from outside for that).
"""
import importlib.util
import json
import sys
import time

T_START = time.perf_counter()


def main(reward_path, data_path, name="compute_score"):
    spec = importlib.util.spec_from_file_location("reward", reward_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, name)

    t0 = time.perf_counter()
    rows = []
    with open(data_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
    # The arguments as the harness builds them (runPython.ts, rowPayload): data_source '' when absent, ground_truth
    # None when absent, extra_info with num_turns and rollout_reward_scores.
    calls = []
    for r in rows:
        extra = dict(r["extra_info"]) if isinstance(r.get("extra_info"), dict) else {}
        extra.setdefault("num_turns", r.get("__num_turns__"))
        extra.setdefault("rollout_reward_scores", r["reward_scores"] if isinstance(r.get("reward_scores"), dict) else {})
        calls.append((str(r.get("data_source") or ""), r["completion"], r.get("ground_truth"), extra))
    t1 = time.perf_counter()

    c1 = time.process_time()
    total = 0.0
    for data_source, solution_str, ground_truth, extra_info in calls:
        total += float(fn(data_source=data_source, solution_str=solution_str, ground_truth=ground_truth,
                          extra_info=extra_info))
    t2 = time.perf_counter()
    c2 = time.process_time()

    print(json.dumps({
        "rows": len(rows),
        "sum": total,
        "read_ms": (t1 - t0) * 1000,
        "score_ms": (t2 - t1) * 1000,
        "score_cpu_ms": (c2 - c1) * 1000,
        "script_ms": (t2 - T_START) * 1000,
        "python": sys.version.split()[0],
    }))


if __name__ == "__main__":
    main(*sys.argv[1:])
