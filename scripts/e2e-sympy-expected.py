#!/usr/bin/env python3
"""The numbers e2e/python-packages.spec.ts expects: its reward (a sympy scorer wrapped by functools.lru_cache)
run with CPython and sympy 1.14.0 on the demo rollouts, called as verl's default_compute_score calls a per-source
scorer. Prints the mean and the count of rows scored 1.

    python3 scripts/e2e-sympy-expected.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
REWARD = open(os.path.join(HERE, "..", "e2e", "fixtures", "sympy_cached.py")).read()


def main():
    import sympy
    assert sympy.__version__ == "1.14.0"
    ns = {}
    exec(compile(REWARD, "reward.py", "exec"), ns)
    with open(os.path.join(HERE, "..", "public", "demo", "gsm8k-rollouts.jsonl")) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    scores = [ns["compute_score"](r["completion"], r["ground_truth"]) for r in rows]
    print(json.dumps({"rows": len(scores), "mean": sum(scores) / len(scores), "ones": sum(1 for s in scores if s == 1.0)}))


if __name__ == "__main__":
    main()
