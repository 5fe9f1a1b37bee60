"""Expected figures for e2e/frameworks-files.spec.ts, computed with plain CPython on the demo data.

    python3 scripts/e2e-strings-expected.py

verl_pred.py: compute_score called per row as verl calls a custom reward (keyword arguments), the string "pred"
counted as the browser test reads it (filter "contains", first rows).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")


def demo_rows():
    with open(os.path.join(ROOT, "public", "demo", "gsm8k-rollouts.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load(name):
    ns = {}
    path = os.path.join(ROOT, "e2e", "fixtures", name)
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), ns)
    return ns


def verl_pred():
    fn = load("verl_pred.py")["compute_score"]
    out = [fn(data_source="", solution_str=r["completion"], ground_truth=r["ground_truth"], extra_info={}) for r in demo_rows()]
    preds = [o["pred"] for o in out]
    return {
        "mean": sum(o["score"] for o in out) / len(out),
        "first_preds": preds[:4],
        "invalid": sum("INVALID" in p for p in preds),
        "contains_18": sum("18" in p for p in preds),
        "distinct_with_18": sorted({p for p in preds if "18" in p}, key=float),
    }


if __name__ == "__main__":
    print(json.dumps({"verl_pred": verl_pred()}, indent=1))
