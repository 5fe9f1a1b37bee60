#!/usr/bin/env python3
"""
Reference values for the frameworks' reward-file shapes (issue 22), computed with plain CPython (3.11 here).

    python3 scripts/framework-fixtures.py   # rewrites src/core/python/testing/frameworks/expected.json

Each fixture in src/core/python/testing/frameworks/ is run as a module and its entry point called the way its
framework calls it: a verl per-source scorer positionally, compute_score(solution_str, ground_truth), as verl's
default_compute_score calls gsm8k.compute_score; a verl custom reward function by keyword (NaiveRewardManager);
a TRL reward (a def or a reward object) once per batch with prompts=, completions=, completion_ids= and the
columns as keyword lists (GRPOTrainer._calculate_rewards). What each call returned is written as it is (dicts
included); frameworks.test.ts runs the same files through the studio's harness in Pyodide and compares.
Standard library only: the fixtures run unchanged in the studio.
"""
import json
import os
import runpy

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "..", "src", "core", "python", "testing", "frameworks")

ROWS = [
    # (data_source, completion, ground_truth)
    ("gsm8k", "The total is 18.\n#### 18", "18"),
    ("gsm8k", "#### 1,000", "1000"),
    ("gsm8k", "I think 17\n#### 17", "18"),
    ("gsm8k", "no answer here", "18"),
    ("bonus", "So \\boxed{42}. Answer: 42", "42"),
    ("math", "Answer: 41", "42"),
    ("math", "the cat the cat the cat the cat", "7"),
]

# (fixture, entry point the studio should pick by default, its kind)
CASES = [
    ("per_source_gsm8k.py", "compute_score", "verl-source"),
    ("per_source_dapo.py", "compute_score", "verl-source"),
    ("custom_verl.py", "compute_score", "verl"),
    ("trl_objects.py", "soft", "trl"),
    ("trl_objects.py", "repetition", "trl"),
    ("trl_reward_funcs.py", "reward_funcs", "trl-list"),
]


def weighted(ns):
    """TRL's GRPOTrainer with reward_funcs and reward_weights: each function's values (None as None), and the total
    nansum(weight * value) per row, None left out, 0 when every function returned None."""
    per_func = {f.__name__: call(ns, f.__name__, "trl") for f in ns["reward_funcs"]}
    weights = ns["reward_weights"]
    totals = []
    for i in range(len(ROWS)):
        values = [(w, per_func[f.__name__][i]) for w, f in zip(weights, ns["reward_funcs"])]
        totals.append(sum(w * v for w, v in values if v is not None))
    return {"functions": per_func, "weights": weights, "total": totals}


def call(ns, name, kind):
    if kind == "trl-list":
        return weighted(ns)
    fn = ns[name]
    if kind == "verl-source":
        return [fn(sol, gt) for _, sol, gt in ROWS]
    if kind == "verl":
        return [fn(data_source=ds, solution_str=sol, ground_truth=gt,
                   extra_info={"num_turns": None, "rollout_reward_scores": {}}) for ds, sol, gt in ROWS]
    n = len(ROWS)
    return list(fn(prompts=["Q?"] * n, completions=[sol for _, sol, _ in ROWS], completion_ids=[None] * n,
                   data_source=[ds for ds, _, _ in ROWS], ground_truth=[gt for _, _, gt in ROWS]))


def main():
    out = {"rows": [{"data_source": ds, "completion": sol, "ground_truth": gt} for ds, sol, gt in ROWS], "cases": []}
    for file, name, kind in CASES:
        ns = runpy.run_path(os.path.join(DIR, file))
        out["cases"].append({"file": file, "name": name, "kind": kind, "results": call(ns, name, kind)})
    path = os.path.join(DIR, "expected.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, allow_nan=False)
        f.write("\n")
    print("wrote %s" % os.path.relpath(path))


if __name__ == "__main__":
    main()
