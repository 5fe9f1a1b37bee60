"""Baseline for bench/cli.bench.mjs: what a person would write in Python/pandas to do the same job as
`reward-studio score <file> --reward <answer check> --json` on a rollout dump:

  load the JSONL with pandas, apply the same answer-check reward with `re` (the number after a final "A:" equals
  ground_truth), then the core diagnostics: reward mean/std/min/max/distinct, per-group reward std (GRPO groups
  by `uid`) and the share of groups with zero std, and the Pearson correlation of reward vs completion length.

Usage: python3 bench/cli_baseline.py <file.jsonl>   Prints one JSON object (the numbers, for a cross-check).
"""
import json
import re
import sys

import pandas as pd

ANSWER = re.compile(r"A:\s*(-?[\d,]+(?:\.\d+)?)\s*$")


def reward(completion: str, ground_truth: str) -> float:
    m = ANSWER.search(completion)
    if m is None:
        return 0.0
    try:
        return 1.0 if float(m.group(1).replace(",", "")) == float(ground_truth) else 0.0
    except ValueError:
        return 0.0


def main(path: str) -> None:
    df = pd.read_json(path, lines=True, dtype={"ground_truth": str})
    df["reward"] = [reward(c, g) for c, g in zip(df["completion"], df["ground_truth"])]
    df["length"] = df["completion"].str.len()
    group_std = df.groupby("uid", sort=False)["reward"].std(ddof=1)
    r = df["reward"]
    out = {
        "rows": int(len(df)),
        "groups": int(group_std.size),
        "reward": {"mean": float(r.mean()), "std": float(r.std(ddof=0)), "min": float(r.min()), "max": float(r.max()), "distinct": int(r.nunique())},
        "length": {"pearson": float(r.corr(df["length"]))},
        "collapse": {"zeroStdGroupFraction": float((group_std.fillna(0) == 0).mean())},
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
