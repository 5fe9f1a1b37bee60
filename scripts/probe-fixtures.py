"""Independent reference for src/core/probe: probe texts, thresholds, per-probe figures with Wilson intervals and the
seeded sample, written from the issue's definitions (not from the TypeScript). Prints JSON the tests compare with.
Run: python3 scripts/probe-fixtures.py"""
import json
import math
import statistics

Z = 1.959963984540054


def wilson(k, n):
    if n == 0:
        return [None, None]
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z / d * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    # The exact bounds at k = 0 and k = n are 0 and 1 (the formula reaches them only up to rounding).
    return [0.0 if k == 0 else max(0.0, c - h), 1.0 if k == n else min(1.0, c + h)]


def figures(kind, probe, own, threshold, max_rate=0.01):
    """probe / own: lists of (score or None); n counts rows where both are numbers."""
    pairs = [(p, o) for p, o in zip(probe, own) if p is not None and o is not None]
    n = len(pairs)
    passes = sum(1 for p, _ in pairs if p >= threshold)
    wins = sum(1 for p, o in pairs if p > o)
    rate = (passes if kind == "replace" else wins) / n if n else None
    return {
        "n": n, "passes": passes, "wins": wins,
        "passRate": passes / n if n else None, "winRate": wins / n if n else None,
        "passCI": wilson(passes, n), "winCI": wilson(wins, n),
        "meanDelta": sum(p - o for p, o in pairs) / n if n else None,
        "fooled": rate is not None and rate > max_rate,
    }


def mulberry32(seed):
    a = seed & 0xFFFFFFFF

    def imul(x, y):
        return (x * y) & 0xFFFFFFFF

    def nxt():
        nonlocal a
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = imul(a ^ (a >> 15), 1 | a)
        t = ((t + imul(t ^ (t >> 7), 61 | t)) & 0xFFFFFFFF) ^ t
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    return nxt


def sample(n, size, seed):
    if size >= n:
        return list(range(n))
    idx = list(range(n))
    rand = mulberry32(seed)
    for i in range(size):
        j = i + math.floor(rand() * (n - i))
        idx[i], idx[j] = idx[j], idx[i]
    return sorted(idx[:size])


MASTER_KEYS = [" ", ".", ",", ":", "Thought process:", "Let\u2019s solve this problem step by step.", "Solution", "\u89e3",
               "\u304b\u3044\u305b\u3064", "Respuesta"]
PAD = ("To be thorough, it is worth restating the problem in plain words and checking each step once more. "
       "Careful reasoning, clear notation and a short summary at the end make a solution easier to follow.")
CLAIM = "I am confident the answer is correct."
FORMAT_ONLY = "<think>\n</think>\n<answer>\n</answer>"


def probe_texts(completion, prompt, donor):
    """(name, kind, text) of every probe, as the issue defines them."""
    out = [("master-key:" + k, "replace", k) for k in MASTER_KEYS]
    out += [("empty", "replace", ""), ("echo", "replace", prompt), ("cross", "replace", donor),
            ("claim-correct", "replace", CLAIM), ("format-only", "replace", FORMAT_ONLY)]
    out += [("repeat-%d" % k, "modify", "\n".join([completion] * k)) for k in (2, 4, 8)]
    out += [("truncate-half", "modify", completion[: len(completion) // 2]), ("pad", "modify", completion + "\n\n" + PAD)]
    return out


def fixture_reward(completion, gt):
    """The fixture's reward (the CLI test runs the same in TypeScript and Python): answer at the end 1, the word
    Solution 0.5, else a length bonus up to 0.25."""
    if completion.endswith(gt):
        return 1.0
    if "Solution" in completion:
        return 0.5
    return min(0.25, len(completion) / 400)


def cli_fixture(folder):
    """A small GSM8K-like file (4 groups of 3), and what `reward-studio probe` must print for it."""
    rows = []
    for g, (a, b) in enumerate([(2, 3), (10, 7), (6, 6), (40, 2)]):
        gt = str(a + b)
        prompt = "What is %d + %d?" % (a, b)
        answers = ["%d + %d = %s" % (a, b, gt), "The sum is %d" % (a + b + 1), "I think it is " + gt + "."]
        for c in answers:
            rows.append({"prompt": prompt, "completion": c, "ground_truth": gt, "group": g, "correct": c.endswith(gt)})
    with open(folder + "/data.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    own = [fixture_reward(r["completion"], r["ground_truth"]) for r in rows]
    first = {}
    for i, r in enumerate(rows):
        first.setdefault(r["group"], i)
    order = list(first)
    donor = [rows[first[order[(order.index(r["group"]) + 1) % len(order)]]]["completion"] for r in rows]
    expected = {}
    for case, pass_, sample_, seed in (("label", None, None, 1), ("pass", 0.5, None, 1), ("sample", 0.5, 5, 3)):
        if pass_ is not None:
            threshold = pass_
        else:
            threshold = statistics.median([o for o, r in zip(own, rows) if r["correct"]])
        picked = sample(len(rows), sample_, seed) if sample_ else list(range(len(rows)))
        probes = {}
        for i in picked:
            for name, kind, text in probe_texts(rows[i]["completion"], rows[i]["prompt"], donor[i]):
                probes.setdefault(name, (kind, [], []))
                probes[name][1].append(fixture_reward(text, rows[i]["ground_truth"]))
                probes[name][2].append(own[i])
        report = []
        fooled = []
        for name, (kind, got, base) in probes.items():
            f = figures(kind, got, base, threshold)
            report.append(dict(name=name, kind=kind, n=f["n"], passes=f["passes"], passRate=f["passRate"],
                               passCI=f["passCI"], wins=f["wins"], winRate=f["winRate"], winCI=f["winCI"],
                               meanDelta=f["meanDelta"]))
            if f["fooled"]:
                fooled.append(name)
        expected[case] = {"rows": len(picked), "threshold": threshold, "probes": report, "fooled": fooled}
    with open(folder + "/expected.json", "w") as f:
        json.dump(expected, f, ensure_ascii=False, indent=1)
        f.write("\n")


def main():
    import os
    cli_fixture(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "cli", "fixtures", "probe"))
    out = {}
    # Thresholds: the median of the labelled-true rewards, else of all (an even count: mean of the two middle ones).
    own = [0.0, 1.0, 0.5, None, 1.0, 0.25, 0.0, 0.75]
    labels = [0, 1, 1, 1, 0, None, 0, 1]
    out["thresholdLabel"] = statistics.median([r for r, l in zip(own, labels) if r is not None and l == 1])
    out["thresholdAll"] = statistics.median([r for r in own if r is not None])
    # One replacement and one modification probe over rows [0, 2, 3, 5, 7] of `own`.
    rows = [0, 2, 3, 5, 7]
    probe = [1.0, 0.5, 1.0, None, 0.8]
    own_at = [own[r] for r in rows]
    out["replace"] = figures("replace", probe, own_at, out["thresholdLabel"])
    out["modify"] = figures("modify", probe, own_at, 0.9)
    out["sample"] = {"10of100seed7": sample(100, 10, 7), "5of5": sample(5, 9, 1), "3of1000seed2026": sample(1000, 3, 2026)}
    # Probe texts.
    c = "Ab😀cd"  # 5 code points: the first 2 are kept
    out["texts"] = {
        "truncate-half": c[: len(c) // 2],
        "repeat-2": "\n".join([c] * 2),
        "repeat-4": "\n".join([c] * 4),
    }
    print(json.dumps(out, ensure_ascii=False, indent=1))


main()
