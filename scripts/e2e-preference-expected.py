"""Expected values for e2e/preference.spec.ts, computed independently in plain Python (+ numpy.percentile).

- Preference tab: e2e/fixtures/preference-pairs.jsonl scored by the test's reward (completion length, null when the
  completion is "N/A"), and by its negation. A pair is correct when chosen > rejected, a tie when equal (not correct,
  still in the denominator), unscored when a side is null. The 95% CI follows stats/preference.ts: the 0/1 vector of
  the scored pairs in pair order (first appearance in the file), 2000 resamples drawn with mulberry32(1), index
  int(u * m), then numpy.percentile(accs, [2.5, 97.5]) (method "linear"); each subset with its own fresh stream.
- Best-of-N tab: the GSM8K demo scored by `completion length > 250 → 1 else 0` against is_correct_openai, by brute
  force over every N-subset of every group (ties at the top split evenly), in exact fractions.
Percentages are printed as the studio shows them: one decimal, half away from zero on the double's exact value
(JavaScript's toFixed).

Run: python3 scripts/e2e-preference-expected.py
"""
import itertools
import os
import json
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_io import mulberry32  # noqa: E402  (scripts/fixture_io.py)



def pct(v):
    """JavaScript's `${(v * 100).toFixed(1)}%` (v * 100 rounded as a double first, as in the studio)."""
    return f"{Decimal(float(v) * 100).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}%"


def bootstrap(hits, resamples=2000, seed=1):
    rnd = mulberry32(seed)
    m = len(hits)
    accs = []
    for _ in range(resamples):
        accs.append(sum(hits[int(rnd() * m)] for _ in range(m)) / m)
    lo, hi = np.percentile(np.array(accs), [2.5, 97.5])
    return float(lo), float(hi)


def preference(records, reward):
    outcomes = []  # (subset, outcome) in file order
    for rec in records:
        c, r = reward(rec["chosen"]), reward(rec["rejected"])
        if c is None or r is None:
            o = "unscored"
        elif c > r:
            o = "correct"
        elif c == r:
            o = "tie"
        else:
            o = "wrong"
        outcomes.append((rec["subset"], o))

    def summary(items):
        hits = [1 if o == "correct" else 0 for o in items if o != "unscored"]
        lo, hi = bootstrap(hits)
        acc = sum(hits) / len(hits)
        return {
            "pairs": len(items),
            "correct": items.count("correct"),
            "tied": items.count("tie"),
            "wrong": items.count("wrong"),
            "unscored": items.count("unscored"),
            "accuracy": acc,
            "text": f"accuracy {pct(acc)} (95% CI {pct(lo)}–{pct(hi)})",
            "cells": [pct(acc), f"{pct(lo)}–{pct(hi)}"],
        }

    out = summary([o for _, o in outcomes])
    subsets = list(dict.fromkeys(s for s, _ in outcomes))
    out["bySubset"] = {s: summary([o for t, o in outcomes if t == s]) for s in subsets}
    return out


def length_reward(text):
    return None if "N/A" in text else len(text.encode("utf-16-le")) // 2


def best_of_n(rows, score, label):
    groups = {}
    for x in rows:
        groups.setdefault(x["group"], []).append((score(x), Fraction(label(x))))
    largest = max(len(g) for g in groups.values())
    out = []
    for n in range(1, largest + 1):
        use = [g for g in groups.values() if len(g) >= n]
        top = Fraction(0)
        for g in use:
            total = Fraction(0)
            combos = list(itertools.combinations(g, n))
            for combo in combos:
                best = max(s for s, _ in combo)
                winners = [lab for s, lab in combo if s == best]
                total += sum(winners) / len(winners)
            top += total / len(combos)
        random = sum((sum(lab for _, lab in g) / len(g) for g in use), Fraction(0))
        out.append({"n": n, "groups": len(use), "top": pct(top / len(use)), "random": pct(random / len(use)),
                    "topExact": str(top / len(use)), "randomExact": str(random / len(use))})
    return out


def main():
    records = [json.loads(l) for l in open("e2e/fixtures/preference-pairs.jsonl")]
    neg = lambda t: None if length_reward(t) is None else -length_reward(t)  # noqa: E731
    demo = [json.loads(l) for l in open("public/demo/gsm8k-rollouts.jsonl")]
    longer = lambda x: 1 if len(x["completion"].encode("utf-16-le")) // 2 > 250 else 0  # noqa: E731
    print(json.dumps({
        "length": preference(records, length_reward),
        "negativeLength": preference(records, neg),
        "bestOfN": best_of_n(demo, longer, lambda x: 1 if x["is_correct_openai"] else 0),
    }, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
